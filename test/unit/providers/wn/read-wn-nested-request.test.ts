import t from 'tap';
import { samplePngBase64 } from '../../../fakes/dashscope/fake-dashscope-upstream.js';
import { readWnVideoRequest } from '../../../../providers/wn-hx/wn-family.js';
import { videoJobUsage } from '../../../../providers/wn-hx/dashscope-video-family.js';
import { refusalOf, videoRequest } from './wn-test-helpers.js';

const nested = (model: string, input: Record<string, unknown>, parameters?: Record<string, unknown>, top: Record<string, unknown> = {}) =>
  videoRequest({ model, ...top, metadata: { input, ...(parameters === undefined ? {} : { parameters }) } });
const t2v = (input: Record<string, unknown> = { prompt: 'a lighthouse in a storm' }, parameters?: Record<string, unknown>, top?: Record<string, unknown>) =>
  nested('wn2.7-t2v-2026-04-25', input, parameters, top);
const i2v = (media: unknown[], parameters?: Record<string, unknown>, input: Record<string, unknown> = {}) => nested('wn2.7-i2v-2026-04-25', { ...input, media }, parameters);
const r2v = (media: unknown[], parameters?: Record<string, unknown>, prompt = '图1 walks into 视频1') => nested('wn2.7-r2v', { prompt, media }, parameters);

const frame = (type: string, url = `https://cdn.example.com/${type}.png`) => ({ type, url });
const audio = { type: 'driving_audio', url: 'https://cdn.example.com/voice.wav' };
const clip = { type: 'first_clip', url: 'https://cdn.example.com/start.mp4' };
const referenceVideo = { type: 'reference_video', url: 'https://cdn.example.com/dancer.mov' };

t.test('a wn2.7 text-to-video request sends its input as is, with the resolution and duration that decide the price', async (t) => {
  const job = readWnVideoRequest(t2v());
  t.strictSame(job.input, { prompt: 'a lighthouse in a storm' });
  t.strictSame(job.parameters, { resolution: '720P', duration: 5 }, 'the spec’s 720P default is sent; DashScope’s own would be 1080P');
  t.strictSame(videoJobUsage(job), { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0, seconds: 5, resolution: '720p', source: 'estimated' });
  t.strictSame(job.details, { seconds: 5, resolution: '720p' });
});

t.test('every wn2.7 text-to-video field maps onto input and parameters, in the upstream’s order', async (t) => {
  const job = readWnVideoRequest(
    t2v(
      { audio_url: 'https://cdn.example.com/theme.mp3', negative_prompt: 'blurry', prompt: '[0-3s] waves; [3-8s] lightning' },
      { seed: 42, watermark: true, prompt_extend: false, duration: 8, ratio: '9:16', resolution: '1080p' },
    ),
  );
  t.strictSame(job.input, { prompt: '[0-3s] waves; [3-8s] lightning', negative_prompt: 'blurry', audio_url: 'https://cdn.example.com/theme.mp3' });
  t.strictSame(Object.entries(job.parameters), [
    ['resolution', '1080P'],
    ['ratio', '9:16'],
    ['duration', 8],
    ['prompt_extend', false],
    ['watermark', true],
    ['seed', 42],
  ]);
  t.equal(job.tier, '1080p');
});

t.test('the top-level prompt and duration fill in metadata’s, and must agree with them when both are given', async (t) => {
  const fromTop = readWnVideoRequest(t2v({}, undefined, { prompt: 'a fox', duration: 12 }));
  t.strictSame(fromTop.input, { prompt: 'a fox' });
  t.equal(fromTop.parameters.duration, 12);
  t.equal(fromTop.seconds, 12);
  t.equal(readWnVideoRequest(t2v({ prompt: 'a fox' }, { duration: 6 }, { prompt: 'a fox', duration: 6 })).seconds, 6, 'equal copies are fine');
  t.match(refusalOf(() => readWnVideoRequest(t2v({ prompt: 'a fox' }, { duration: 5 }, { duration: 8 }))), {
    statusCode: 400,
    param: 'duration',
    message: /^duration: 8 differs from metadata\.parameters\.duration \(5\); keep them equal/,
  });
  t.match(refusalOf(() => readWnVideoRequest(t2v({ prompt: 'a fox' }, undefined, { prompt: 'a wolf' }))), { param: 'prompt', message: /differs from metadata\.input\.prompt/ });
  t.match(refusalOf(() => readWnVideoRequest(t2v({}, undefined, { prompt: 'a fox', duration: 16 }))), { param: 'duration', message: /expected 2 to 15 seconds/ }, 'the range names the field given');
});

t.test('wn2.7 image-to-video takes a first frame with an optional last frame and driving audio, or a first clip', async (t) => {
  const framed = readWnVideoRequest(i2v([frame('first_frame'), frame('last_frame'), audio], { resolution: '1080P' }));
  t.strictSame(framed.input, { media: [frame('first_frame'), frame('last_frame'), audio] });
  t.strictSame(framed.parameters, { resolution: '1080P', duration: 5 });
  t.strictSame(readWnVideoRequest(i2v([clip], { duration: 10 }, { prompt: 'go on' })).input, { prompt: 'go on', media: [clip] });
  const inline = readWnVideoRequest(i2v([frame('first_frame', `data:image/png;base64,${samplePngBase64}`)]));
  t.strictSame(inline.input.media, [{ type: 'first_frame', url: `data:image/png;base64,${samplePngBase64}` }], 'an inline image is checked and kept');
});

t.test('wn2.7-r2v takes up to 5 reference images and videos, a first frame, and reference voices on the references', async (t) => {
  const media = [
    { ...frame('reference_image'), reference_voice: 'https://cdn.example.com/alice.wav' },
    referenceVideo,
    frame('first_frame'),
  ];
  const job = readWnVideoRequest(r2v(media, { duration: 10, ratio: '1:1' }));
  t.strictSame(job.input.media, media);
  t.strictSame(job.parameters, { resolution: '720P', ratio: '1:1', duration: 10 });
  t.equal(readWnVideoRequest(r2v([frame('reference_image')], { duration: 15 })).seconds, 15, 'without videos up to 15 seconds');
  t.match(refusalOf(() => readWnVideoRequest(r2v([referenceVideo], { duration: 11 }))), {
    param: 'metadata.parameters.duration',
    message: /expected 2 to 10 seconds when reference videos are given/,
  });
});

t.test('every invalid wn2.7 value is a 400 naming its field path', async (t) => {
  const five = Array.from({ length: 5 }, () => frame('reference_image'));
  const cases: Array<[string, unknown, string, RegExp]> = [
    ['no metadata', videoRequest({ model: 'wn2.7-t2v-2026-04-25', prompt: 'x' }), 'metadata', /required/],
    ['no input', videoRequest({ model: 'wn2.7-t2v-2026-04-25', prompt: 'x', metadata: {} }), 'metadata.input', /required/],
    ['input as a string', videoRequest({ model: 'wn2.7-t2v-2026-04-25', metadata: { input: 'x' } }), 'metadata.input', /expected an object/],
    ['a top-level resolution', t2v(undefined, undefined, { resolution: '720P' }), 'resolution', /unknown field; .*metadata\.parameters/],
    ['an unknown input field', t2v({ prompt: 'x', img_url: 'https://e.com/a.png' }), 'metadata.input.img_url', /metadata\.input takes prompt, negative_prompt, audio_url and media/],
    ['an unknown parameter', t2v(undefined, { size: '1280*720' }), 'metadata.parameters.size', /metadata\.parameters takes resolution, ratio/],
    ['an unknown media field', i2v([{ ...frame('first_frame'), role: 'first' }]), 'metadata.input.media[0].role', /media items take type, url/],
    ['no prompt on t2v', t2v({}), 'metadata.input.prompt', /required/],
    ['an empty prompt on r2v', r2v([frame('reference_image')], undefined, ''), 'metadata.input.prompt', /must not be empty/],
    ['a negative prompt over 500 characters', t2v({ prompt: 'x', negative_prompt: 'n'.repeat(501) }), 'metadata.input.negative_prompt', /at most 500 characters/],
    ['a soundtrack on i2v', i2v([frame('first_frame')], undefined, { audio_url: 'https://e.com/a.mp3' }), 'metadata.input.audio_url', /driving_audio/],
    ['a soundtrack as flac', t2v({ prompt: 'x', audio_url: 'https://e.com/a.flac' }), 'metadata.input.audio_url', /\.wav, \.mp3/],
    ['media on t2v', t2v({ prompt: 'x', media: [frame('first_frame')] }), 'metadata.input.media', /takes no media/],
    ['a media type of another mode', i2v([frame('reference_image')]), 'metadata.input.media[0].type', /first_frame, last_frame, driving_audio or first_clip/],
    ['a media type named like an inherited property', i2v([frame('constructor')]), 'metadata.input.media[0].type', /first_frame, last_frame, driving_audio or first_clip/],
    ['no media on i2v', i2v([]), 'metadata.input.media', /required: a first_frame .* or a first_clip/],
    ['two first frames', i2v([frame('first_frame'), frame('first_frame')]), 'metadata.input.media', /at most 1 first_frame item$/],
    ['a last frame alone', i2v([frame('last_frame')]), 'metadata.input.media', /needs a first_frame/],
    ['driving audio alone', i2v([clip, audio]), 'metadata.input.media', /cannot be combined|add a first_frame/],
    ['a first frame and a first clip', i2v([frame('first_frame'), clip]), 'metadata.input.media', /cannot be combined with a first_frame/],
    ['a first clip that is an image', i2v([{ type: 'first_clip', url: 'https://e.com/a.png' }]), 'metadata.input.media[0].url', /\.png file is not accepted here; expected \.mp4, \.mov/],
    ['driving audio inline', i2v([frame('first_frame'), { type: 'driving_audio', url: 'data:audio/wav;base64,AAAA' }]), 'metadata.input.media[1].url', /only images may be sent inline/],
    ['a first frame on oss', i2v([frame('first_frame', 'oss://bucket/a.png')]), 'metadata.input.media[0].url', /oss: URLs are not accepted/],
    ['a media URL as a number', i2v([{ type: 'first_frame', url: 7 }]), 'metadata.input.media[0].url', /expected the URL as a string/],
    ['no references on r2v', r2v([frame('first_frame')]), 'metadata.input.media', /at least one reference_image or reference_video/],
    ['six reference images', r2v([...five, frame('reference_image')]), 'metadata.input.media', /at most 5 reference_image items/],
    ['six references together', r2v([...five, referenceVideo]), 'metadata.input.media', /at most 5 reference images and videos together/],
    ['a reference voice on i2v', i2v([{ ...frame('first_frame'), reference_voice: 'https://e.com/v.wav' }]), 'metadata.input.media[0].reference_voice', /only wn2\.7-r2v/],
    ['a reference voice on the first frame', r2v([frame('reference_image'), { ...frame('first_frame'), reference_voice: 'https://e.com/v.wav' }]), 'metadata.input.media[1].reference_voice', /reference_image or reference_video item/],
    ['a reference voice as a video', r2v([{ ...frame('reference_image'), reference_voice: 'https://e.com/v.mp4' }]), 'metadata.input.media[0].reference_voice', /\.wav, \.mp3/],
    ['480P', t2v(undefined, { resolution: '480P' }), 'metadata.parameters.resolution', /720P or 1080P/],
    ['a ratio on i2v', i2v([frame('first_frame')], { ratio: '16:9' }), 'metadata.parameters.ratio', /omit ratio/],
    ['a ratio of hx', t2v(undefined, { ratio: '21:9' }), 'metadata.parameters.ratio', /16:9, 9:16, 1:1, 4:3, 3:4/],
    ['duration 1', t2v(undefined, { duration: 1 }), 'metadata.parameters.duration', /2 to 15/],
    ['duration 16', t2v(undefined, { duration: 16 }), 'metadata.parameters.duration', /2 to 15/],
    ['duration 5.5', t2v(undefined, { duration: 5.5 }), 'metadata.parameters.duration', /whole number of seconds/],
    ['a top-level duration as text', t2v(undefined, undefined, { duration: '5' }), 'duration', /whole number of seconds/],
    ['prompt_extend as text', t2v(undefined, { prompt_extend: 'true' }), 'metadata.parameters.prompt_extend', /true or false/],
    ['watermark as a number', t2v(undefined, { watermark: 0 }), 'metadata.parameters.watermark', /true or false/],
    ['a seed too large', t2v(undefined, { seed: 2147483648 }), 'metadata.parameters.seed', /0 to 2147483647/],
    ['a multipart body', videoRequest({ model: 'wn2.7-t2v-2026-04-25', prompt: 'x', uploads: [] }), 'metadata', /JSON body/],
  ];
  for (const [name, request, param, message] of cases) {
    const error = refusalOf(() => readWnVideoRequest(request as never));
    t.match(error, { statusCode: 400, code: 'invalid_request', param, message }, name);
    t.ok(error.message.startsWith(`${param}: `), `${name}: the message starts with the field`);
  }
});
