import t from 'tap';
import { GatewayError, type VideoSubmitRequest } from '../../../../core/index.js';
import { estimateSrUsage } from '../../../../providers/sr/sr-usage.js';
import { prepareSrRequest } from '../../../../providers/sr/read-sr-request.js';
import { readSrRequest } from '../../../../providers/sr/read-sr-request.js';

const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(40, 3)]);
const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(40, 5)]);
const gif = Buffer.from('GIF89a-and-some-more-bytes-here');

const request = (fields: Record<string, unknown>): VideoSubmitRequest => ({ model: 'sr-2', prompt: 'a fox in snow', ...fields }) as VideoSubmitRequest;

/** The 400 a request gets, as the client sees its message and param. */
function refusal(fields: Record<string, unknown>): { message: string; param: string | undefined } {
  try {
    readSrRequest(request(fields));
  } catch (error) {
    if (GatewayError.is(error) && error.statusCode === 400) return { message: error.message, param: error.param };
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(fields).slice(0, 80)} to be refused`);
}

t.test('defaults: 4 seconds, portrait 720x1280, text-to-video', async (t) => {
  t.strictSame(readSrRequest(request({})), { prompt: 'a fox in snow', seconds: 4, size: '720x1280', reference: undefined, remixFromVideoId: undefined });
});

t.test('seconds may be a number or a string, and leaves as a number', async (t) => {
  for (const value of [4, 8, 12, '4', '8', '12']) t.equal(readSrRequest(request({ seconds: value })).seconds, Number(value), `seconds ${JSON.stringify(value)}`);
  t.equal(readSrRequest(request({ size: '1280x720' })).size, '1280x720');
});

t.test('each invalid field is a 400 naming it and saying what to send', async (t) => {
  const cases: Array<[Record<string, unknown>, string, RegExp]> = [
    [{ prompt: undefined }, 'prompt', /required; describe the video/],
    [{ prompt: '   ' }, 'prompt', /must not be empty/],
    [{ prompt: 42 }, 'prompt', /expected the prompt as a string/],
    [{ prompt: 'x'.repeat(32_001) }, 'prompt', /at most 32000 characters/],
    [{ seconds: 5 }, 'seconds', /expected 4, 8 or 12/],
    [{ seconds: '5' }, 'seconds', /expected 4, 8 or 12/],
    [{ seconds: 4.5 }, 'seconds', /expected 4, 8 or 12/],
    [{ seconds: '8.0' }, 'seconds', /expected 4, 8 or 12/],
    [{ seconds: true }, 'seconds', /expected 4, 8 or 12/],
    [{ size: '1024x1024' }, 'size', /720x1280 \(portrait\) or 1280x720 \(landscape\)/],
    [{ size: '1792x1024' }, 'size', /720x1280/],
    [{ size: 720 }, 'size', /720x1280/],
    [{ remix_from_video_id: '' }, 'remix_from_video_id', /id of one of your finished sr-2 videos/],
    [{ remix_from_video_id: 42 }, 'remix_from_video_id', /id of one of your finished sr-2 videos/],
    [{ input_reference: 42 }, 'input_reference', /http\(s\) URL, a data: URI or base64/],
    [{ input_reference: '' }, 'input_reference', /must not be empty/],
    [{ input_reference: { url: 'https://example.com/a.png' } }, 'input_reference', /http\(s\) URL/],
  ];
  for (const [fields, param, message] of cases) {
    const refused = refusal(fields);
    t.equal(refused.param, param, `${JSON.stringify(fields).slice(0, 60)} names ${param}`);
    t.match(refused.message, new RegExp(`^${param}: `));
    t.match(refused.message, message);
  }
});

t.test("other families' fields are refused with the sr-2 field to use instead; unknown fields by name", async (t) => {
  t.match(refusal({ duration: 8 }), { param: 'duration', message: /^duration: not an sr-2 field; send seconds \(4, 8 or 12\) instead/ });
  t.match(refusal(JSON.parse('{"constructor": 1}')), { param: 'constructor', message: /^unknown field "constructor": sr-2 takes/ });
  t.match(refusal({ toString: 1 }), { param: 'toString', message: /^unknown field "toString": sr-2 takes/ });
  t.match(refusal({ image: 'https://example.com/a.png' }), { param: 'image', message: /input_reference instead/ });
  t.match(refusal({ resolution: '1080p' }), { param: 'resolution', message: /send size/ });
  t.match(refusal({ aspect_ratio: '16:9' }), { param: 'aspect_ratio', message: /1280x720 landscape/ });
  t.match(refusal({ metadata: {} }), { param: 'metadata', message: /flat fields/ });
  t.match(refusal({ style: 'noir' }), { param: 'style', message: /^unknown field "style": sr-2 takes model, prompt, seconds, size, input_reference and remix_from_video_id/ });
});

t.test('input_reference as a URL is kept for the fetch; only http(s) URLs are taken', async (t) => {
  t.strictSame(readSrRequest(request({ input_reference: ' https://example.com/first.png ' })).reference, { kind: 'url', url: 'https://example.com/first.png' });
  t.strictSame(readSrRequest(request({ input_reference: { image_url: 'http://example.com/a.jpg' } })).reference, { kind: 'url', url: 'http://example.com/a.jpg' });
  t.match(refusal({ input_reference: 'ftp://example.com/a.png' }), { param: 'input_reference', message: /expected an http\(s\) URL, a data: URI or base64/ });
  t.match(refusal({ input_reference: 'example.com/a.png' }), { param: 'input_reference', message: /expected an http\(s\) URL/ });
});

t.test('inline images are checked by their first bytes, whatever type they declare', async (t) => {
  t.strictSame(readSrRequest(request({ input_reference: png.toString('base64') })).reference, { kind: 'inline', dataUri: `data:image/png;base64,${png.toString('base64')}` });
  t.strictSame(readSrRequest(request({ input_reference: `data:image/png;base64,${jpeg.toString('base64')}` })).reference, {
    kind: 'inline',
    dataUri: `data:image/jpeg;base64,${jpeg.toString('base64')}`,
  });
  t.match(refusal({ input_reference: gif.toString('base64') }), { param: 'input_reference', message: /base64 data does not hold a png, jpeg or webp image/ });
  t.match(refusal({ input_reference: `data:image/gif;base64,${gif.toString('base64')}` }), { param: 'input_reference', message: /data: URI does not hold a png/ });
  t.match(refusal({ input_reference: 'data:image/png,%89PNG' }), { param: 'input_reference', message: /base64 data: URI/ });
  t.match(refusal({ input_reference: 'data:image/png;base64,iVBO!!!!' }), { param: 'input_reference', message: /not hold valid base64/ });
});

t.test('uploads: one input_reference file of an accepted type, sniffed from its bytes', async (t) => {
  const upload = { field: 'input_reference', filename: 'first.bin', mimeType: 'application/octet-stream', data: jpeg };
  t.strictSame(readSrRequest(request({ uploads: [upload] })).reference, { kind: 'upload', upload, mimeType: 'image/jpeg' });
  t.match(refusal({ uploads: [{ ...upload, data: gif }] }), { param: 'input_reference', message: /the file "first.bin" is not a png, jpeg or webp image/ });
  t.match(refusal({ uploads: [{ ...upload, field: 'image' }] }), { param: 'image', message: /unknown file field "image"/ });
  t.match(refusal({ uploads: [upload, upload] }), { param: 'input_reference', message: /one reference image/ });
  t.match(refusal({ uploads: [upload], input_reference: 'https://example.com/a.png' }), { param: 'input_reference', message: /one reference image/ });
});

t.test("the official SDK's form field input_reference[image_url] reads as the JSON shape; file ids are refused", async (t) => {
  t.strictSame(readSrRequest(request({ 'input_reference[image_url]': 'https://example.com/a.png' })).reference, { kind: 'url', url: 'https://example.com/a.png' });
  t.match(refusal({ 'input_reference[file_id]': 'file-abc' }), { param: 'input_reference', message: /file ids are not accepted/ });
  t.match(refusal({ input_reference: { file_id: 'file-abc' } }), { param: 'input_reference', message: /file ids are not accepted/ });
});

t.test('a remix names its video (by the upstream id core resolved) and brings no reference image', async (t) => {
  t.match(readSrRequest(request({ remix_from_video_id: 'video_68d7512d07848190b3e45da0ecbebcde' })), { remixFromVideoId: 'video_68d7512d07848190b3e45da0ecbebcde', reference: undefined });
  t.match(readSrRequest(request({ remix_from_video_id: 'task-42' })), { remixFromVideoId: 'task-42' }, 'the upstream id core put in place may have any form');
  t.match(refusal({ remix_from_video_id: 'video_abc', input_reference: png.toString('base64') }), { param: 'input_reference', message: /a remix starts from the video it remixes/ });
});

t.test('the estimate bills the seconds at the size’s resolution, 720p for both sizes', async (t) => {
  t.strictSame(estimateSrUsage(prepareSrRequest(request({}))), { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0, seconds: 4, resolution: '720p', source: 'estimated' });
  t.match(estimateSrUsage(prepareSrRequest(request({ seconds: '12', size: '1280x720' }))), { seconds: 12, resolution: '720p' });
  t.throws(() => prepareSrRequest(request({ seconds: 6 })), { param: 'seconds', message: /^seconds: / }, 'a bad request is refused before any quota is reserved');
});
