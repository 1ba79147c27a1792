import t from 'tap';
import { samplePng, samplePngBase64 } from '../../../fakes/dashscope/fake-dashscope-upstream.js';
import { readWnVideoRequest } from '../../../../providers/wn-hx/wn-family.js';
import { videoJobUsage } from '../../../../providers/wn-hx/dashscope-video-family.js';
import { refusalOf, videoRequest } from './wn-test-helpers.js';

const textToVideo = (fields: Record<string, unknown> = {}) => videoRequest({ model: 'wn2.5-t2v-preview', prompt: 'a kitten running in moonlight', ...fields });
const imageToVideo = (fields: Record<string, unknown> = {}) => videoRequest({ model: 'wn2.5-i2v-preview', image: 'https://cdn.example.com/cat.png', ...fields });
const gifBase64 = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1').toString('base64');

t.test('a wn2.5 text-to-video request gets the spec’s defaults: 5 seconds at 720p as a 16:9 size, no rewrite, no audio', async (t) => {
  const job = readWnVideoRequest(textToVideo());
  t.strictSame(job.input, { prompt: 'a kitten running in moonlight' });
  t.strictSame(job.parameters, { size: '1280*720', duration: 5, prompt_extend: false, audio: false });
  t.strictSame(job.details, { seconds: 5, resolution: '720p', size: '1280*720' });
  t.strictSame(videoJobUsage(job), { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0, seconds: 5, resolution: '720p', source: 'estimated' });
});

t.test('every wn2.5 field maps onto the flat upstream input and parameters', async (t) => {
  const job = readWnVideoRequest(
    textToVideo({ duration: 10, resolution: '1080P', smart_rewrite: true, generate_audio: true, audio_url: 'https://cdn.example.com/song.mp3', seed: 2147483647 }),
  );
  t.strictSame(job.input, { prompt: 'a kitten running in moonlight', audio_url: 'https://cdn.example.com/song.mp3' });
  t.strictSame(job.parameters, { size: '1920*1080', duration: 10, prompt_extend: true, audio: true, seed: 2147483647 });
  t.equal(job.tier, '1080p', 'resolution is read in either case');
  t.equal(readWnVideoRequest(textToVideo({ audio_url: 'https://cdn.example.com/song.wav' })).parameters.audio, undefined, 'a soundtrack leaves audio to the upstream');
});

t.test('a text-to-video size decides the tier by its pixels and must agree with a resolution given too', async (t) => {
  const cases: Array<[string, string]> = [
    ['832*480', '480p'],
    ['624*624', '480p'],
    ['1280*720', '720p'],
    ['960*960', '720p'],
    ['1088*832', '720p'],
    ['1920*1080', '1080p'],
    ['1248*1632', '1080p'],
  ];
  for (const [size, tier] of cases) {
    const job = readWnVideoRequest(textToVideo({ size }));
    t.equal(job.tier, tier, size);
    t.equal(job.parameters.size, size);
  }
  t.equal(readWnVideoRequest(textToVideo({ size: '720*1280', resolution: '720p' })).tier, '720p');
  const conflict = refusalOf(() => readWnVideoRequest(textToVideo({ size: '1920*1080', resolution: '720p' })));
  t.match(conflict, { statusCode: 400, param: 'size', message: /1080p size but resolution says 720p/ });
});

t.test('wn2.5 image-to-video sends the image as img_url and the resolution in upper case', async (t) => {
  const job = readWnVideoRequest(imageToVideo({ prompt: 'the cat starts to dance', resolution: '480p' }));
  t.strictSame(job.input, { prompt: 'the cat starts to dance', img_url: 'https://cdn.example.com/cat.png' });
  t.strictSame(job.parameters, { resolution: '480P', duration: 5, prompt_extend: false, audio: false });
  t.strictSame(job.details, { seconds: 5, resolution: '480p' }, 'no size: the image decides the aspect');
  t.strictSame(readWnVideoRequest(imageToVideo()).input, { img_url: 'https://cdn.example.com/cat.png' }, 'the prompt is optional');
});

t.test('an inline image is sent as a data URI typed from its bytes, with or without the data: prefix', async (t) => {
  t.equal(readWnVideoRequest(imageToVideo({ image: `data:image/png;base64,${samplePngBase64}` })).input.img_url, `data:image/png;base64,${samplePngBase64}`);
  t.equal(readWnVideoRequest(imageToVideo({ image: samplePngBase64 })).input.img_url, `data:image/png;base64,${samplePngBase64}`, 'raw base64');
  t.equal(readWnVideoRequest(imageToVideo({ image: `data:image/jpeg;base64,${samplePngBase64}` })).input.img_url, `data:image/png;base64,${samplePngBase64}`, 'the bytes decide the type');
});

t.test('a multipart image file becomes a data URI, and flags sent as text are read as booleans', async (t) => {
  const job = readWnVideoRequest(
    videoRequest({ model: 'wn2.5-i2v-preview', smart_rewrite: 'true', generate_audio: 'FALSE', duration: 10, uploads: [{ field: 'image', filename: 'cat.png', mimeType: 'image/png', data: Buffer.from(samplePng) }] }),
  );
  t.equal(job.input.img_url, `data:image/png;base64,${samplePngBase64}`);
  t.match(job.parameters, { duration: 10, prompt_extend: true, audio: false });
  const upload = { field: 'image', filename: 'cat.png', mimeType: 'image/png', data: Buffer.from(samplePng) };
  t.match(refusalOf(() => readWnVideoRequest(videoRequest({ model: 'wn2.5-i2v-preview', uploads: [upload, upload] }))), { param: 'image', message: /one image file/ });
  t.match(refusalOf(() => readWnVideoRequest(videoRequest({ model: 'wn2.5-i2v-preview', uploads: [{ ...upload, field: 'audio' }] }))), { param: 'audio', message: /unknown file field/ });
  t.match(refusalOf(() => readWnVideoRequest(videoRequest({ model: 'wn2.5-i2v-preview', image: 'https://e.com/a.png', uploads: [upload] }))), { param: 'image', message: /not both/ });
  t.match(refusalOf(() => readWnVideoRequest(videoRequest({ model: 'wn2.5-i2v-preview', uploads: [{ ...upload, data: Buffer.from('not an image') }] }))), { param: 'image', message: /not a JPEG, PNG, BMP or WebP/ });
  t.match(refusalOf(() => readWnVideoRequest(videoRequest({ model: 'wn2.5-t2v-preview', prompt: 'x', smart_rewrite: 'true' }))), { param: 'smart_rewrite' }, 'JSON stays strict');
});

t.test('every invalid wn2.5 value is a 400 naming its field', async (t) => {
  const cases: Array<[string, Record<string, unknown>, string, RegExp]> = [
    ['duration 7', textToVideo({ duration: 7 }), 'duration', /expected 5 or 10/],
    ['duration as text', textToVideo({ duration: '5' }), 'duration', /expected 5 or 10/],
    ['resolution 4k', textToVideo({ resolution: '4k' }), 'resolution', /480p, 720p or 1080p/],
    ['a size with x', textToVideo({ size: '1280x720' }), 'size', /width\*height/],
    ['a size on image-to-video', imageToVideo({ size: '1280*720' }), 'size', /only text-to-video takes a size/],
    ['an image on text-to-video', textToVideo({ image: 'https://e.com/a.png' }), 'image', /use wn2\.5-i2v-preview/],
    ['no image on image-to-video', imageToVideo({ image: undefined }), 'image', /required/],
    ['an ftp image', imageToVideo({ image: 'ftp://e.com/a.png' }), 'image', /ftp: URLs are not accepted/],
    ['an oss image', imageToVideo({ image: 'oss://bucket/a.png' }), 'image', /oss: URLs are not accepted/],
    ['a gif image', imageToVideo({ image: `data:image/gif;base64,${gifBase64}` }), 'image', /not a JPEG, PNG, BMP or WebP/],
    ['a .gif URL', imageToVideo({ image: 'https://e.com/a.gif' }), 'image', /\.gif file is not accepted/],
    ['text that is no image', imageToVideo({ image: 'a cat!' }), 'image', /http\(s\) URL or a base64 data URI/],
    ['an http soundtrack', textToVideo({ audio_url: 'http://e.com/a.mp3' }), 'audio_url', /https URL/],
    ['an aac soundtrack', textToVideo({ audio_url: 'https://e.com/a.aac' }), 'audio_url', /\.wav, \.mp3/],
    ['a negative seed', textToVideo({ seed: -1 }), 'seed', /0 to 2147483647/],
    ['a seed too large', textToVideo({ seed: 2147483648 }), 'seed', /0 to 2147483647/],
    ['a fractional seed', textToVideo({ seed: 1.5 }), 'seed', /whole number/],
    ['smart_rewrite as text', textToVideo({ smart_rewrite: 'yes' }), 'smart_rewrite', /true or false/],
    ['generate_audio as a number', textToVideo({ generate_audio: 1 }), 'generate_audio', /true or false/],
    ['an unknown field', textToVideo({ aspect_ratio: '16:9' }), 'aspect_ratio', /unknown field; wn2\.5 models take prompt, image/],
    ['nested metadata', textToVideo({ metadata: { input: {} } }), 'metadata', /unknown field/],
    ['no prompt', textToVideo({ prompt: undefined }), 'prompt', /required/],
    ['an empty prompt', textToVideo({ prompt: '  ' }), 'prompt', /must not be empty/],
    ['a model without rules', videoRequest({ model: 'wn2.5-r2v-preview', prompt: 'x' }), 'model', /not a wn video model/],
  ];
  for (const [name, request, param, message] of cases) {
    const error = refusalOf(() => readWnVideoRequest(request as never));
    t.match(error, { statusCode: 400, code: 'invalid_request', param, message }, name);
    t.ok(error.message.startsWith(`${param}: `), `${name}: the message starts with the field`);
  }
});
