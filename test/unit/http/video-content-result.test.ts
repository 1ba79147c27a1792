import t from 'tap';
import { videoContentResult } from '../../../core/kit/index.js';
import { upstreamAnswer } from '../../helpers/upstream-answer.js';

t.test("a video.content answer is typed by the upstream's Content-Type, video/mp4 when it is absent or blank", async (t) => {
  t.equal(videoContentResult(upstreamAnswer(200, 'mp4', { 'content-type': 'video/webm' })).contentType, 'video/webm');
  t.equal(videoContentResult(upstreamAnswer(200, 'mp4', { 'content-type': 'video/mp4; codecs=avc1' })).contentType, 'video/mp4; codecs=avc1', 'passed on as the upstream wrote it');
  t.equal(videoContentResult(upstreamAnswer(200, 'mp4', { 'content-type': '' })).contentType, 'video/mp4');
  t.equal(videoContentResult(upstreamAnswer(200, 'mp4')).contentType, 'video/mp4');
});

t.test('a type the provider gives wins over the header; an undefined one falls back to the header, then video/mp4', async (t) => {
  const response = upstreamAnswer(200, 'mp4', { 'content-type': 'application/octet-stream' });
  t.equal(videoContentResult(response, 'video/quicktime').contentType, 'video/quicktime');
  t.equal(videoContentResult(response, '').contentType, 'video/mp4');
  t.equal(videoContentResult(response, undefined).contentType, 'application/octet-stream');
});

t.test('the body goes out unread and free', async (t) => {
  const response = upstreamAnswer(200, 'mp4', { 'content-type': 'video/mp4' });
  const result = videoContentResult(response);
  t.equal(result.kind, 'bytes');
  t.equal(result.body, response.body);
  t.match(result.usage, { source: 'upstream', inputTokens: 0, outputTokens: 0 });
});
