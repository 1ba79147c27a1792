import t from 'tap';
import { readDsxSubmission, toDsxTaskRequest } from '../../../../providers/dsx/dsx-submission.js';
import { dsxFixture, thrown } from './fixtures/read-dsx-fixtures.js';

const createBodies = dsxFixture('ark-seedance-create-requests.json');
const jpegBase64 = '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQH/wAALCAAIAAgBAREA/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQAAPwD/AEgP/9k=';

const text = (value: string) => ({ type: 'text', text: value });
const image = (url: string, role?: string) => ({ type: 'image_url', image_url: { url }, ...(role === undefined ? {} : { role }) });
const body = (model: string, content: unknown[], metadata: Record<string, unknown> = {}) => ({ model, metadata: { content, ...metadata } });
const pro15 = 'dsx-1-5-pro-251215';
const liteT2v = 'dsx-1-0-lite-t2v-250428';
const liteI2v = 'dsx-1-0-lite-i2v-250428';
const pro10 = 'dsx-1-0-pro-250528';

/** The 400 a body gets: its param and message. */
function refusal(request: Record<string, unknown>) {
  const error = thrown(() => readDsxSubmission(request as never));
  return { status: error.statusCode, code: error.code, param: error.param, message: error.message };
}

t.test('the recorded marker prompt goes upstream untouched and is billed by its markers', async (t) => {
  const recorded = createBodies.legacy_text_markers;
  const submission = readDsxSubmission(body(liteT2v, recorded.content) as never);
  const upstream = toDsxTaskRequest(submission, 'doubao-seedance-1-0-lite-t2v-250428');
  t.strictSame(upstream.content, recorded.content, 'the text with its markers, as recorded');
  t.equal(upstream.model, 'doubao-seedance-1-0-lite-t2v-250428');
  t.match(submission, { seconds: 5, resolution: '720p', ratio: '16:9' });
  t.notOk('resolution' in upstream || 'duration' in upstream, 'the markers already say them');
});

t.test('the recorded example sends --cf to 1.5 pro, which the spec keeps for the lite models', async (t) => {
  const recorded = createBodies.legacy_text_markers;
  t.match(refusal(body(pro15, recorded.content)), { status: 400, param: 'metadata.content[0].text --cf' });
  const withoutCf = [text(recorded.content[0].text.replace(' --cf false', ''))];
  const upstream = toDsxTaskRequest(readDsxSubmission(body(pro15, withoutCf) as never), recorded.model);
  t.strictSame(upstream, { model: 'seedance-1-5-pro-251215', content: withoutCf, generate_audio: true }, '1.5 pro makes sound');
});

t.test('what billing depends on and the client left out goes as top-level fields', async (t) => {
  const upstream = toDsxTaskRequest(readDsxSubmission(body(pro10, [text('a fox')]) as never), 'doubao-seedance-1-0-pro-250528');
  t.strictSame(upstream, { model: 'doubao-seedance-1-0-pro-250528', content: [text('a fox')], resolution: '720p', duration: 5 });
  const silent = toDsxTaskRequest(readDsxSubmission(body('dsx-1-5-pro-251215-noAudio', [text('a fox --dur 8')]) as never), 'seedance-1-5-pro-251215');
  t.equal(silent.generate_audio, false, 'the noAudio id asks for a silent video');
  t.notOk('duration' in silent);
});

t.test('the flat prompt becomes the first text item and may carry markers', async (t) => {
  const submission = readDsxSubmission({ model: liteI2v, prompt: 'the cat turns --rs 480p --dur 10', metadata: { content: [image('https://img.example/cat.png')] } } as never);
  t.strictSame(submission.content, [text('the cat turns --rs 480p --dur 10'), image('https://img.example/cat.png')]);
  t.match(submission, { seconds: 10, resolution: '480p' });
  t.match(refusal({ model: pro15, prompt: 'a --rs 1080p' }), { status: 400, param: 'prompt --rs' });
  t.match(refusal({ model: pro15, prompt: 'a', metadata: { content: [text('b')] } }), { param: 'metadata.content[0].text', message: /already given as prompt/ });
  t.match(refusal(body(pro15, [text('a'), text('b')])), { param: 'metadata.content[1].text', message: /only one text item/ });
});

t.test('every marker is checked against the model, and a wrong one names the text and the marker', async (t) => {
  const cases: Array<[string, string, string, RegExp]> = [
    [pro15, 'a --rs 1080p', 'metadata.content[0].text --rs', /480p or 720p/],
    [pro15, 'a --resolution 4k', 'metadata.content[0].text --resolution', /480p or 720p/],
    [pro10, 'a --rs 480p', 'metadata.content[0].text --rs', /720p or 1080p/],
    [liteT2v, 'a --ratio adaptive', 'metadata.content[0].text --ratio', /16:9/],
    [pro15, 'a --ratio 21:9', 'metadata.content[0].text --ratio', /adaptive/],
    [pro15, 'a --dur 3', 'metadata.content[0].text --dur', /4 to 12/],
    [pro15, 'a --duration 13', 'metadata.content[0].text --duration', /4 to 12/],
    [pro15, 'a --dur 5.5', 'metadata.content[0].text --dur', /whole seconds/],
    [pro10, 'a --dur 1', 'metadata.content[0].text --dur', /2 to 12/],
    [pro10, 'a --frames 121', 'metadata.content[0].text --frames', /only for the 1.5 pro/],
    [pro15, 'a --frames 30', 'metadata.content[0].text --frames', /25\+4n/],
    [pro15, 'a --frames 25', 'metadata.content[0].text --frames', /29 to 289/],
    [pro15, 'a --frames 293', 'metadata.content[0].text --frames', /29 to 289/],
    [pro15, 'a --fps 30', 'metadata.content[0].text --fps', /use 24/],
    [pro15, 'a --framespersecond 12', 'metadata.content[0].text --framespersecond', /use 24/],
    [pro15, 'a --seed -2', 'metadata.content[0].text --seed', /-1 \(random\) to 4294967295/],
    [pro15, 'a --seed 4294967296', 'metadata.content[0].text --seed', /4294967295/],
    [pro15, 'a --wm yes', 'metadata.content[0].text --wm', /true or false/],
    [pro15, 'a --watermark 1', 'metadata.content[0].text --watermark', /true or false/],
    [liteT2v, 'a --cf maybe', 'metadata.content[0].text --cf', /true or false/],
    [pro15, 'a --cf true', 'metadata.content[0].text --cf', /only for the lite models/],
    [pro10, 'a --camerafixed false', 'metadata.content[0].text --camerafixed', /only for the lite models/],
    [pro15, 'a --style anime', 'metadata.content[0].text --style', /unknown marker/],
    [pro15, 'a --constructor x', 'metadata.content[0].text --constructor', /unknown marker/],
    [pro15, 'a --toString x', 'metadata.content[0].text --toString', /unknown marker/],
    [pro15, 'a --rs', 'metadata.content[0].text --rs', /needs a value/],
    [pro15, 'a --rs --dur 5', 'metadata.content[0].text --rs', /needs a value/],
    [pro15, 'a --rs 720p --resolution 480p', 'metadata.content[0].text --resolution', /given twice/],
  ];
  for (const [model, prompt, param, message] of cases) {
    t.match(refusal(body(model, [text(prompt)])), { status: 400, code: 'invalid_request', param, message }, `${model}: ${prompt}`);
  }
});

t.test('valid markers are read in every spelling, frames billed as frames / 24 seconds', async (t) => {
  const submission = readDsxSubmission(body(pro15, [text('a cat -- yawning --rs 480p --rt 9:16 --frames 121 --dur 5 --fps 24 --seed -1 --wm false')]) as never);
  t.match(submission, { resolution: '480p', ratio: '9:16', frames: 121, seconds: 121 / 24 });
  const lite = readDsxSubmission(body(liteT2v, [text('a cat --cf true --seed 4294967295 --rs 1080p --duration 12')]) as never);
  t.match(lite, { resolution: '1080p', seconds: 12 });
  t.match(readDsxSubmission(body(liteI2v, [image('https://img.example/a.png')], {}) as never), { resolution: '720p', seconds: 5 }, 'the spec defaults');
});

t.test('text-to-video models take no images and need a prompt', async (t) => {
  t.match(refusal(body(liteT2v, [text('a'), image('https://img.example/a.png')])), { param: 'metadata.content[1].image_url.url', message: /takes no images/ });
  t.match(refusal(body(liteT2v, [text('--rs 720p')])), { param: 'metadata.content[0].text', message: /needs a prompt/ });
  t.match(refusal({ model: pro15 }), { param: 'prompt', message: /needs a prompt/ });
  t.match(readDsxSubmission({ model: liteT2v, prompt: 'a fox' } as never), { seconds: 5 });
});

t.test('the 1.0 lite image model takes first, first+last and up to four reference images, and needs one', async (t) => {
  const url = (name: string) => `https://img.example/${name}.png`;
  t.ok(readDsxSubmission(body(liteI2v, [image(url('a'))]) as never), 'one image without a role is the first frame');
  t.ok(readDsxSubmission(body(liteI2v, [image(url('a'), 'first_frame'), image(url('b'), 'last_frame')]) as never));
  t.ok(readDsxSubmission(body(liteI2v, [text('x'), ...['a', 'b', 'c', 'd'].map((name) => image(url(name), 'reference_image'))]) as never));
  t.match(refusal(body(liteI2v, [text('a fox')])), { param: 'metadata.content', message: /needs an image/ });
  t.match(refusal(body(liteI2v, ['a', 'b', 'c', 'd', 'e'].map((name) => image(url(name), 'reference_image')))), { param: 'metadata.content[4].role', message: /at most 4/ });
  t.match(refusal(body(liteI2v, [image(url('a')), image(url('b'))])), { param: 'metadata.content[0].role', message: /give each one a role/ });
  t.match(refusal(body(liteI2v, [image(url('a'), 'last_frame')])), { param: 'metadata.content[0].role', message: /needs a first_frame/ });
  t.match(refusal(body(liteI2v, [image(url('a'), 'first_frame'), image(url('b'), 'first_frame')])), { param: 'metadata.content[1].role', message: /only one first_frame/ });
  t.match(refusal(body(liteI2v, [image(url('a'), 'first_frame'), image(url('b'), 'reference_image')])), { param: 'metadata.content[1].role', message: /do not mix/ });
});

t.test('the 1.5 and 1.0 pro models take first and first+last frames, no reference images', async (t) => {
  const url = 'https://img.example/a.png';
  for (const model of [pro15, 'dsx-1-5-pro-251215-noAudio', pro10]) {
    t.ok(readDsxSubmission(body(model, [image(url, 'first_frame'), image(url, 'last_frame')]) as never), `${model}: first and last`);
    t.match(refusal(body(model, [image(url, 'reference_image')])), { param: 'metadata.content[0].role', message: /takes no reference images/ }, model);
  }
});

t.test('images are URLs, data URIs or raw base64 of an image type; asset references are for 2.0', async (t) => {
  const inline = readDsxSubmission(body(liteI2v, [image(jpegBase64)]) as never);
  t.strictSame(inline.content[0], image(`data:image/jpeg;base64,${jpegBase64}`), 'raw base64 goes as a data URI of its real type');
  const relabelled = readDsxSubmission(body(liteI2v, [image(`data:image/png;base64,${jpegBase64}`)]) as never);
  t.strictSame(relabelled.content[0], image(`data:image/jpeg;base64,${jpegBase64}`), 'the type the bytes show');
  const cases: Array<[string, RegExp]> = [
    ['ftp://img.example/a.png', /http\(s\) URL/],
    [`data:image/png;base64,${Buffer.from('not an image at all').toString('base64')}`, /not a jpeg, png/],
    ['data:image/png,plain', /base64 data URI/],
    ['asset://asset-20260101-abc', /only|2\.0 models/],
    ['https://', /not a valid URL/],
  ];
  for (const [url, message] of cases) t.match(refusal(body(liteI2v, [image(url)])), { param: 'metadata.content[0].image_url.url', message }, url.slice(0, 40));
});

t.test('return_last_frame is for 1.5 pro; callback_url must be https', async (t) => {
  const submission = readDsxSubmission(body(pro15, [text('a')], { return_last_frame: true, callback_url: 'https://hooks.example/done' }) as never);
  t.match(submission.fields, { return_last_frame: true, callback_url: 'https://hooks.example/done' });
  t.match(refusal(body(pro10, [text('a')], { return_last_frame: true })), { param: 'metadata.return_last_frame', message: /only the 1.5 pro/ });
  t.match(refusal(body(pro15, [text('a')], { return_last_frame: 'yes' })), { param: 'metadata.return_last_frame', message: /true or false/ });
  t.match(refusal(body(pro15, [text('a')], { callback_url: 'http://hooks.example/done' })), { param: 'metadata.callback_url', message: /https/ });
  t.match(refusal(body(pro15, [text('a')], { callback_url: 'not a url' })), { param: 'metadata.callback_url' });
});

t.test('the body shape is strict: unknown fields, item types and roles name their path', async (t) => {
  t.match(refusal({ model: pro15, duration: 5, prompt: 'a' }), { param: 'duration', message: /unknown field "duration"/ });
  t.match(refusal(body(pro15, [text('a')], { ratio: '16:9' })), { param: 'metadata.ratio', message: /unknown field/ });
  t.match(refusal(body(pro15, [{ type: 'video_url', video_url: { url: 'https://v.example/a.mp4' } }])), { param: 'metadata.content[0]', message: /text or image_url/ });
  t.match(refusal(body(pro15, [image('https://img.example/a.png', 'hero')])), { param: 'metadata.content[0].role', message: /first_frame, last_frame or reference_image/ });
  t.match(refusal(body(pro15, [{ type: 'image_url', image_url: {} }])), { param: 'metadata.content[0].image_url.url', message: /required/ });
  t.match(refusal(body(pro15, [])), { param: 'metadata.content', message: /at least one/ });
  t.match(refusal({ model: pro15, prompt: 'a', uploads: [{ field: 'image', filename: 'a.png', mimeType: 'image/png', data: Buffer.alloc(1) }] }), { param: 'image', message: /JSON body/ });
  t.match(refusal({ model: 'dsx-9', prompt: 'a' }), { param: 'model', message: /not a Seedance-style video model/ });
});

t.test('another id tells its model by name', async (t) => {
  t.match(readDsxSubmission({ model: 'doubao-seedance-1-5-pro-251215', prompt: 'a --rs 480p' } as never).profile, { id: pro15 });
  t.match(readDsxSubmission({ model: 'my-seedance-1-5-pro-noaudio', prompt: 'a' } as never).profile, { id: 'dsx-1-5-pro-251215-noAudio' });
});
