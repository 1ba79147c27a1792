import t from 'tap';
import type { OperationCall, ProviderHost, UpstreamRequest, UpstreamResponse, VideoTaskQuery } from '../../../../core/index.js';
import type { GoogleApiOptions as VoOptions } from '../../../../providers/shared/google-api/google-api.js';
import { VoTaskNotes } from '../../../../providers/vo/vo-billing.js';
import { createVoVideoOperations } from '../../../../providers/vo/vo-video-operations.js';
import { upstreamAnswer } from '../../../helpers/upstream-answer.js';

const timeouts = { connectMilliseconds: 1000, firstByteMilliseconds: 1000, idleMilliseconds: 1000, totalMilliseconds: 1000 };
const handle = 'models/vo-3.1/operations/abc';
const call = {
  request: { handle },
  model: 'vo-3.1-fast-generate-preview',
  upstreamModel: 'veo-3.1-fast-generate-preview',
  channel: { name: 'veo', baseUrl: 'https://api.example.com', apiKey: 'channel-key', timeouts },
  options: { api_version: 'v1beta' },
  signal: new AbortController().signal,
} as unknown as OperationCall<VideoTaskQuery, VoOptions>;

// The operation of a finished task: one video at an address on the channel's own origin.
const finished = { name: handle, done: true, response: { generateVideoResponse: { generatedSamples: [{ video: { uri: 'https://api.example.com/v1beta/files/abc:download?alt=media' } }] } } };

/** The content operation of a host that answers the poll with `finished`, then the download with `download`. */
function contentOf(download: UpstreamResponse) {
  const answers = [upstreamAnswer(200, finished), download];
  const host = {
    http: { request: async (_request: UpstreamRequest) => answers.shift()! },
    media: {},
    logger: { warn: () => {} },
  } as unknown as ProviderHost;
  const operations = createVoVideoOperations(host, new VoTaskNotes({} as never, host.logger as never));
  return operations['video.content'](call);
}

t.test("video.content is typed by the download's Content-Type without its parameters, video/mp4 when it names none", async (t) => {
  const typed = async (headers: Record<string, string>) => (await contentOf(upstreamAnswer(200, 'mp4', headers))).contentType;
  t.equal(await typed({ 'content-type': 'video/webm; codecs=vp9' }), 'video/webm');
  t.equal(await typed({ 'content-type': ' video/mp4 ' }), 'video/mp4');
  t.equal(await typed({ 'content-type': '; charset=binary' }), 'video/mp4', 'parameters alone name no type');
  t.equal(await typed({ 'content-type': '' }), 'video/mp4');
  t.equal(await typed({}), 'video/mp4');
  const result = await contentOf(upstreamAnswer(200, 'mp4', { 'content-type': 'video/mp4' }));
  t.match(result, { kind: 'bytes', usage: { source: 'upstream', inputTokens: 0, outputTokens: 0 } }, 'free: the video was charged when its task finished');
});
