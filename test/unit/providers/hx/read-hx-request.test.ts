import t from 'tap';
import { samplePngBase64 } from '../../../fakes/dashscope/fake-dashscope-upstream.js';
import { readHxVideoRequest } from '../../../../providers/wn-hx/hx-family.js';
import { videoJobUsage } from '../../../../providers/wn-hx/dashscope-video-family.js';
import { clientBodyOf, hxRequestFixture, refusalOf, videoRequest } from './hx-test-helpers.js';

const nested = (model: string, input: Record<string, unknown>, parameters?: Record<string, unknown>, top: Record<string, unknown> = {}) =>
  videoRequest({ model, ...top, metadata: { input, ...(parameters === undefined ? {} : { parameters }) } });
const t2v = (parameters?: Record<string, unknown>, top?: Record<string, unknown>, input: Record<string, unknown> = { prompt: 'a cat on a meadow' }) => nested('hx-1.0-t2v', input, parameters, top);
const i2v = (media: unknown[], parameters?: Record<string, unknown>) => nested('hx-1.0-i2v', { media }, parameters);
const r2v = (media: unknown[], parameters?: Record<string, unknown>) => nested('hx-1.0-r2v', { prompt: '[Image 1] waves', media }, parameters);
const image = (type: string, url = 'https://cdn.example.com/a.png') => ({ type, url });

t.test('each recorded HappyHorse request, sent as hx metadata, maps back onto exactly the recorded input and parameters', async (t) => {
  for (const name of ['t2v', 'i2v', 'r2v'] as const) {
    const recorded = hxRequestFixture(name);
    const job = readHxVideoRequest(videoRequest(clientBodyOf(recorded)));
    t.strictSame({ input: job.input, parameters: job.parameters }, { input: recorded.input, parameters: recorded.parameters }, name);
    t.strictSame(Object.keys(job.parameters), Object.keys(recorded.parameters), `${name}: in the recorded order`);
  }
  const r2vJob = readHxVideoRequest(videoRequest(clientBodyOf(hxRequestFixture('r2v'))));
  t.strictSame(videoJobUsage(r2vJob), { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0, seconds: 5, resolution: '720p', source: 'estimated' });
  t.strictSame(r2vJob.details, { seconds: 5, resolution: '720p' });
});

t.test('hx sends the spec’s 1080P default and a 5 second duration, and leaves watermark and ratio to the upstream', async (t) => {
  const job = readHxVideoRequest(t2v());
  t.strictSame(job.input, { prompt: 'a cat on a meadow' });
  t.strictSame(job.parameters, { resolution: '1080P', duration: 5 });
  t.equal(job.tier, '1080p');
  t.strictSame(readHxVideoRequest(t2v({ resolution: '720p', ratio: '9:21' })).parameters, { resolution: '720P', ratio: '9:21', duration: 5 }, 'either case; HappyHorse’s own 9:21');
});

t.test('the top-level prompt and duration fill in metadata’s, and must agree with them when both are given', async (t) => {
  const job = readHxVideoRequest(t2v(undefined, { prompt: 'a fox', duration: 15 }, {}));
  t.strictSame(job.input, { prompt: 'a fox' });
  t.equal(job.parameters.duration, 15);
  t.match(refusalOf(() => readHxVideoRequest(t2v({ duration: 5 }, { duration: 10 }))), { param: 'duration', message: /^duration: 10 differs from metadata\.parameters\.duration \(5\)/ });
  t.match(refusalOf(() => readHxVideoRequest(t2v(undefined, { prompt: 'a dog' }))), { param: 'prompt', message: /differs from metadata\.input\.prompt/ });
});

t.test('hx-1.0-r2v takes up to 9 reference images, inline ones typed from their bytes', async (t) => {
  const nine = Array.from({ length: 9 }, (_, index) => image('reference_image', `https://cdn.example.com/${index}.jpg`));
  t.equal((readHxVideoRequest(r2v(nine)).input.media as unknown[]).length, 9);
  const inline = readHxVideoRequest(r2v([image('reference_image', `data:image/webp;base64,${samplePngBase64}`)]));
  t.strictSame(inline.input.media, [{ type: 'reference_image', url: `data:image/png;base64,${samplePngBase64}` }]);
});

t.test('every invalid hx value is a 400 naming its field path', async (t) => {
  const ten = Array.from({ length: 10 }, () => image('reference_image'));
  const cases: Array<[string, unknown, string, RegExp]> = [
    ['no metadata', videoRequest({ model: 'hx-1.0-t2v', prompt: 'x' }), 'metadata', /required/],
    ['no input', videoRequest({ model: 'hx-1.0-t2v', metadata: { parameters: {} } }), 'metadata.input', /required/],
    ['a top-level ratio', t2v(undefined, { ratio: '16:9' }), 'ratio', /unknown field; .*metadata\.parameters/],
    ['a negative prompt', t2v(undefined, undefined, { prompt: 'x', negative_prompt: 'y' }), 'metadata.input.negative_prompt', /takes prompt and media/],
    ['prompt_extend', t2v({ prompt_extend: true }), 'metadata.parameters.prompt_extend', /resolution, ratio, duration, watermark and seed/],
    ['audio_setting', t2v({ audio_setting: 'auto' }), 'metadata.parameters.audio_setting', /unknown field/],
    ['no prompt on t2v', t2v(undefined, undefined, {}), 'metadata.input.prompt', /required/],
    ['no prompt on r2v', nested('hx-1.0-r2v', { media: [image('reference_image')] }), 'metadata.input.prompt', /\[Image 1\]/],
    ['media on t2v', t2v(undefined, undefined, { prompt: 'x', media: [image('first_frame')] }), 'metadata.input.media', /takes no media/],
    ['no first frame', i2v([]), 'metadata.input.media', /exactly one first_frame/],
    ['two first frames', i2v([image('first_frame'), image('first_frame')]), 'metadata.input.media', /exactly one first_frame/],
    ['a last frame', i2v([image('first_frame'), image('last_frame')]), 'metadata.input.media[1].type', /only first_frame/],
    ['a reference video', r2v([image('reference_video', 'https://e.com/a.mp4')]), 'metadata.input.media[0].type', /only reference_image/],
    ['ten reference images', r2v(ten), 'metadata.input.media', /at most 9/],
    ['no reference images', r2v([]), 'metadata.input.media', /1 to 9/],
    ['a bmp first frame', i2v([image('first_frame', 'https://e.com/a.bmp')]), 'metadata.input.media[0].url', /\.bmp file is not accepted/],
    ['an inline gif', i2v([image('first_frame', 'data:image/gif;base64,R0lGODlhAQABAAAAACw=')]), 'metadata.input.media[0].url', /JPEG, PNG or WebP/],
    ['an oss image', i2v([image('first_frame', 'oss://bucket/a.png')]), 'metadata.input.media[0].url', /oss: URLs are not accepted/],
    ['a media item with a role', i2v([{ ...image('first_frame'), role: 'x' }]), 'metadata.input.media[0].role', /type and url/],
    ['480P', t2v({ resolution: '480P' }), 'metadata.parameters.resolution', /720P or 1080P/],
    ['a ratio on i2v', i2v([image('first_frame')], { ratio: '16:9' }), 'metadata.parameters.ratio', /omit ratio/],
    ['ratio 2:1', t2v({ ratio: '2:1' }), 'metadata.parameters.ratio', /9:21, 21:9/],
    ['duration 2', t2v({ duration: 2 }), 'metadata.parameters.duration', /3 to 15/],
    ['duration 16 at the top', t2v(undefined, { duration: 16 }), 'duration', /3 to 15/],
    ['duration 4.5', t2v({ duration: 4.5 }), 'metadata.parameters.duration', /whole number/],
    ['watermark as text', t2v({ watermark: 'false' }), 'metadata.parameters.watermark', /true or false/],
    ['a seed below 0', t2v({ seed: -1 }), 'metadata.parameters.seed', /0 to 2147483647/],
    ['a model without rules', videoRequest({ model: 'hx-1.0-video-edit', metadata: { input: {} } }), 'model', /not an hx video model/],
    ['a multipart body', videoRequest({ model: 'hx-1.0-t2v', prompt: 'x', uploads: [] }), 'metadata', /JSON body/],
  ];
  for (const [name, request, param, message] of cases) {
    const error = refusalOf(() => readHxVideoRequest(request as never));
    t.match(error, { statusCode: 400, code: 'invalid_request', param, message }, name);
    t.ok(error.message.startsWith(`${param}: `), `${name}: the message starts with the field`);
  }
});
