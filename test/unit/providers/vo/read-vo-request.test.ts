import t from 'tap';
import { GatewayError, type VideoSubmitRequest } from '../../../../core/index.js';
import { readVoRequest } from '../../../../providers/vo/read-vo-request.js';

const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const gif = Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1');
const webp = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 ')]);

const read = (fields: Record<string, unknown>, model = 'vo-3.1-fast-generate-preview') => readVoRequest({ model, prompt: 'a fox in snow', ...fields } as VideoSubmitRequest);

/** The 400 a request gets: its param and message. */
function refusal(fields: Record<string, unknown>, model?: string): { param: string | undefined; message: string } {
  try {
    read(fields, model);
  } catch (error) {
    if (!GatewayError.is(error) || error.statusCode !== 400) throw error;
    return { param: error.param, message: error.message };
  }
  throw new Error('the request was accepted');
}

t.test('a prompt alone gets the spec defaults: 4 seconds, 16:9, 1080p, one video', async (t) => {
  t.strictSame(read({}), { prompt: 'a fox in snow', durationSeconds: 4, aspectRatio: '16:9', resolution: '1080p', sampleCount: 1 });
});

t.test('every spec field is taken; the ones the upstream has no use for are checked and dropped', async (t) => {
  const plan = read({
    durationSeconds: 8,
    aspectRatio: '9:16',
    resolution: '720p',
    fps: 24,
    generateAudio: true,
    personGeneration: 'allow_adult',
    addWatermark: false,
    seed: 2_147_483_647,
    sampleCount: 4,
    negativePrompt: 'blurry',
  });
  t.strictSame(plan, { prompt: 'a fox in snow', negativePrompt: 'blurry', durationSeconds: 8, aspectRatio: '9:16', resolution: '720p', sampleCount: 4, personGeneration: 'allow_adult' });
});

t.test('the common flat duration and aspect_ratio stand for durationSeconds and aspectRatio', async (t) => {
  t.match(read({ duration: 6, aspect_ratio: '9:16' }), { durationSeconds: 6, aspectRatio: '9:16' });
  t.match(read({ duration: 6, durationSeconds: 6 }), { durationSeconds: 6 }, 'the same value twice is fine');
  t.match(refusal({ duration: 4, durationSeconds: 8 }), { param: 'duration', message: /conflicts with durationSeconds/ });
  t.match(refusal({ aspect_ratio: '16:9', aspectRatio: '9:16' }), { param: 'aspect_ratio' });
});

t.test('each invalid value is a 400 that names the field and says what to send', async (t) => {
  const cases: Array<[Record<string, unknown>, string, RegExp]> = [
    [{ prompt: undefined }, 'prompt', /^prompt: required/],
    [{ prompt: '   ' }, 'prompt', /must not be empty/],
    [{ prompt: 7 }, 'prompt', /expected the prompt as a string/],
    [{ durationSeconds: 5 }, 'durationSeconds', /expected 4, 6 or 8/],
    [{ durationSeconds: '8' }, 'durationSeconds', /expected 4, 6 or 8/],
    [{ duration: 10 }, 'duration', /expected 4, 6 or 8/],
    [{ aspectRatio: '1:1' }, 'aspectRatio', /expected 16:9 or 9:16/],
    [{ resolution: '4k' }, 'resolution', /expected 720p or 1080p/],
    [{ resolution: '1080P' }, 'resolution', /expected 720p or 1080p/],
    [{ fps: 30 }, 'fps', /24 frames a second only/],
    [{ generateAudio: 'yes' }, 'generateAudio', /expected true or false/],
    [{ personGeneration: 'everyone' }, 'personGeneration', /allow_all, allow_adult or dont_allow/],
    [{ addWatermark: 1 }, 'addWatermark', /expected true or false/],
    [{ seed: -1 }, 'seed', /0 to 2147483647/],
    [{ seed: 2_147_483_648 }, 'seed', /0 to 2147483647/],
    [{ seed: 1.5 }, 'seed', /whole number/],
    [{ sampleCount: 0 }, 'sampleCount', /1 to 4/],
    [{ sampleCount: 5 }, 'sampleCount', /at most 4/],
    [{ negativePrompt: ['x'] }, 'negativePrompt', /expected a string/],
    [{ image: '' }, 'image', /must not be empty/],
    [{ image: 42 }, 'image', /first frame/],
    [{ size: '1280x720' }, 'size', /unknown field "size"/],
    [{ metadata: { durationSeconds: 8 } }, 'metadata', /flat fields/],
  ];
  for (const [fields, param, message] of cases) t.match(refusal(fields), { param, message }, JSON.stringify(fields));
});

t.test('frames: https URLs are kept for the media guard, inline base64 is checked by its bytes', async (t) => {
  t.match(read({ image: 'https://example.com/first.png' }).firstFrame, { field: 'image', kind: 'fetch', url: 'https://example.com/first.png' });
  t.match(read({ image: ` ${png.toString('base64')} ` }).firstFrame, { kind: 'fetch', url: `data:application/octet-stream;base64,${png.toString('base64')}` });
  t.match(read({ image: `data:image/webp;base64,${webp.toString('base64')}` }).firstFrame, { kind: 'fetch', url: /^data:image\/webp;base64,/ });
  t.match(refusal({ image: `data:image/gif;base64,${gif.toString('base64')}` }), { param: 'image', message: /gif images are not accepted/ });
  t.match(refusal({ image: gif.toString('base64') }), { param: 'image', message: /gif images are not accepted/ });
  t.match(refusal({ image: Buffer.from('plain text, not an image').toString('base64') }), { param: 'image', message: /not a png, jpeg or webp image/ });
  t.match(refusal({ image: 'ftp://example.com/a.png' }), { param: 'image', message: /ftp: addresses are not fetched/ });
  t.match(refusal({ image: 'not base64 at all!' }), { param: 'image', message: /expected an https URL, a data: URI or base64/ });
});

t.test('a last frame needs a 3.1 model and a first frame', async (t) => {
  const frames = { image: 'https://example.com/first.png', lastFrame: 'https://example.com/last.png' };
  t.match(read(frames), { firstFrame: { field: 'image' }, lastFrame: { field: 'lastFrame', url: 'https://example.com/last.png' } });
  t.match(refusal(frames, 'vo-3.0-fast-generate-001'), { param: 'lastFrame', message: /vo-3\.0-fast-generate-001 makes videos from a first frame only/ });
  t.match(refusal({ lastFrame: 'https://example.com/last.png' }), { param: 'lastFrame', message: /needs a first frame too/ });
  t.match(read({ image: 'https://example.com/first.png' }, 'vo-3.0-fast-generate-001'), { firstFrame: { field: 'image' } }, '3.0 takes a first frame');
});

t.test('a multipart form: numbers and booleans as text, frames as files', async (t) => {
  const request = {
    model: 'vo-3.1-fast-generate-preview',
    prompt: 'a fox',
    durationSeconds: '6',
    sampleCount: '2',
    fps: '24',
    generateAudio: 'false',
    uploads: [
      { field: 'image', filename: 'first.png', mimeType: 'image/png', data: png },
      { field: 'lastFrame', filename: 'last.webp', mimeType: 'image/webp', data: webp },
    ],
  } as unknown as VideoSubmitRequest;
  const plan = readVoRequest(request);
  t.match(plan, { durationSeconds: 6, sampleCount: 2, firstFrame: { kind: 'upload', data: png }, lastFrame: { kind: 'upload', data: webp } });
  const withUploads = (fields: Record<string, unknown>, uploads: unknown[]) => () => readVoRequest({ model: 'vo-3.1-fast-generate-preview', prompt: 'x', ...fields, uploads } as unknown as VideoSubmitRequest);
  t.throws(withUploads({}, [{ field: 'image', filename: 'a.gif', mimeType: 'image/gif', data: gif }]), { param: 'image', message: /gif images are not accepted/ });
  t.throws(withUploads({ image: 'https://example.com/a.png' }, [{ field: 'image', filename: 'a.png', mimeType: 'image/png', data: png }]), { param: 'image', message: /not both or twice/ });
  t.throws(withUploads({}, [{ field: 'video', filename: 'a.mp4', mimeType: 'video/mp4', data: png }]), { param: 'video', message: /unknown file field/ });
  t.throws(withUploads({ durationSeconds: 'eight' }, []), { param: 'durationSeconds', message: /expected 4, 6 or 8/ });
  t.throws(() => readVoRequest({ model: 'vo-3.1-fast-generate-preview', prompt: 'x', generateAudio: 'false' } as unknown as VideoSubmitRequest), { param: 'generateAudio', message: /expected true or false/ }, 'JSON stays strict');
});
