import t from 'tap';
import { readDsxSubmission, toDsxTaskRequest } from '../../../../providers/dsx/dsx-submission.js';
import { dsxFixture, thrown } from './fixtures/read-dsx-fixtures.js';

const createBodies = dsxFixture('ark-seedance-create-requests.json');
const jpegBase64 = '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQH/wAALCAAIAAgBAREA/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQAAPwD/AEgP/9k=';

const image = (url: string, role?: string) => ({ type: 'image_url', image_url: { url }, ...(role === undefined ? {} : { role }) });
const video = (url: string) => ({ type: 'video_url', video_url: { url } });
const audio = (url: string) => ({ type: 'audio_url', audio_url: { url } });
const sdx = (fields: Record<string, unknown>) => ({ model: 'sdx-2-0', ...fields });

function refusal(request: Record<string, unknown>) {
  const error = thrown(() => readDsxSubmission(request as never));
  return { status: error.statusCode, param: error.param, message: error.message };
}

t.test('the recorded first+last-frame body is what a 2.0 submission with metadata.content sends', async (t) => {
  const recorded = createBodies.first_last_frame_2_5;
  const submission = readDsxSubmission(sdx({ aspect_ratio: 'adaptive', duration: 5, metadata: { content: recorded.content, generate_audio: true } }) as never);
  const upstream = toDsxTaskRequest(submission, 'dreamina-seedance-2-0-260128');
  t.strictSame(upstream.content, recorded.content, 'text, first frame, last frame, as recorded');
  t.strictSame(upstream, { model: 'dreamina-seedance-2-0-260128', content: recorded.content, resolution: '720p', duration: 5, ratio: 'adaptive', generate_audio: true });
  t.equal(submission.profile.succeededStatus, 'completed', 'a finished 2.0 task shows completed');
});

t.test('the flat fields: prompt and image become the text and first frame; resolution and duration always go', async (t) => {
  const submission = readDsxSubmission(sdx({ prompt: 'a fox', image: 'https://img.example/fox.png', resolution: '1080p', duration: 10, aspect_ratio: '21:9' }) as never);
  t.strictSame(toDsxTaskRequest(submission, 'm'), {
    model: 'm',
    content: [{ type: 'text', text: 'a fox' }, image('https://img.example/fox.png', 'first_frame')],
    resolution: '1080p',
    duration: 10,
    ratio: '21:9',
  });
  t.match(submission, { seconds: 10, resolution: '1080p' });
  const inline = readDsxSubmission(sdx({ image: jpegBase64 }) as never);
  t.strictSame(inline.content[0], image(`data:image/jpeg;base64,${jpegBase64}`, 'first_frame'), 'base64 goes as a data URI');
});

t.test('resolution, duration and aspect_ratio are checked per model', async (t) => {
  t.match(refusal({ model: 'sdx-2-0-fast', prompt: 'a', resolution: '1080p' }), { status: 400, param: 'resolution', message: /480p, 720p/ });
  t.match(refusal(sdx({ prompt: 'a', resolution: '4k' })), { param: 'resolution' });
  t.match(refusal(sdx({ prompt: 'a', duration: 3 })), { param: 'duration', message: /4 to 15/ });
  t.match(refusal(sdx({ prompt: 'a', duration: 16 })), { param: 'duration' });
  t.match(refusal(sdx({ prompt: 'a', duration: 5.5 })), { param: 'duration', message: /whole seconds/ });
  t.match(refusal(sdx({ prompt: 'a', duration: '5' })), { param: 'duration', message: /whole seconds/ });
  t.match(refusal(sdx({ prompt: 'a', aspect_ratio: '2:1' })), { param: 'aspect_ratio', message: /adaptive/ });
  t.ok(readDsxSubmission({ model: 'sdx-2-0-fast', prompt: 'a', resolution: '480p' } as never));
});

t.test('multi-modal references: images, videos and audio in the roles Seedance 2.0 allows', async (t) => {
  const content = [
    { type: 'text', text: '@Image1 dances to @Audio1 like @Video1' },
    image('https://img.example/a.png', 'reference_image'),
    video('asset://asset-20260924140015-hczmn'),
    audio('https://audio.example/a.mp3'),
  ];
  const submission = readDsxSubmission(sdx({ metadata: { content } }) as never);
  t.strictSame(submission.content, [
    content[0],
    content[1],
    { ...video('asset://asset-20260924140015-hczmn'), role: 'reference_video' },
    { ...audio('https://audio.example/a.mp3'), role: 'reference_audio' },
  ], 'video and audio get their roles');
  t.strictSame(submission.assets, [{ id: 'asset-20260924140015-hczmn', param: 'metadata.content[2].video_url.url', type: 'video_url', index: 2 }]);
  const roleless = readDsxSubmission(sdx({ prompt: 'x', metadata: { content: [image('https://img.example/a.png'), video('https://v.example/a.mp4')] } }) as never);
  t.equal((roleless.content[1] as { role?: string }).role, 'reference_image', 'an image beside video references is a reference');
});

t.test('reference limits and mode mixing are refused with the item named', async (t) => {
  const images = Array.from({ length: 10 }, (_, index) => image(`https://img.example/${index}.png`, 'reference_image'));
  t.match(refusal(sdx({ prompt: 'x', metadata: { content: images } })), { param: 'metadata.content[9].role', message: /at most 9/ });
  const videos = Array.from({ length: 4 }, (_, index) => video(`https://v.example/${index}.mp4`));
  t.match(refusal(sdx({ prompt: 'x', metadata: { content: videos } })), { param: 'metadata.content[3].video_url.url', message: /at most 3 reference videos/ });
  const audios = Array.from({ length: 4 }, (_, index) => audio(`https://a.example/${index}.mp3`));
  t.match(refusal(sdx({ prompt: 'x', metadata: { content: audios } })), { param: 'metadata.content[3].audio_url.url', message: /at most 3 reference audio/ });
  t.match(refusal(sdx({ prompt: 'x', image: 'https://img.example/a.png', metadata: { content: [video('https://v.example/a.mp4')] } })), { param: 'image', message: /do not mix/ });
  t.match(refusal(sdx({ prompt: 'x', image: 'https://img.example/a.png', metadata: { content: [image('https://img.example/b.png', 'first_frame')] } })), { param: 'metadata.content[0].role', message: /only one first_frame/ });
});

t.test('asset:// is only for image_url, video_url and audio_url URLs; videos and audio are never inline', async (t) => {
  t.match(readDsxSubmission(sdx({ image: 'asset://asset-1' }) as never).assets, [{ id: 'asset-1', param: 'image', type: 'image_url', index: 0 }]);
  t.match(refusal(sdx({ prompt: 'x', metadata: { content: [{ type: 'draft_task', draft_task: { id: 'cgt-1' } }] } })), { param: 'metadata.content[0]', message: /image_url, video_url or audio_url/ });
  t.match(refusal(sdx({ prompt: 'x', metadata: { content: [video(`data:video/mp4;base64,${Buffer.from('mp4').toString('base64')}`)] } })), {
    param: 'metadata.content[0].video_url.url',
    message: /cannot be sent inline/,
  });
  t.match(refusal(sdx({ prompt: 'x', metadata: { content: [audio('asset:/broken')] } })), { param: 'metadata.content[0].audio_url.url', message: /asset:\/\/<virtual id>/ });
  t.match(refusal(sdx({ prompt: 'x', metadata: { content: [video('asset://bad id')] } })), { param: 'metadata.content[0].video_url.url' });
});

t.test('markers in a 2.0 prompt are refused: the fields carry those options', async (t) => {
  t.match(refusal(sdx({ prompt: 'a fox --dur 10' })), { param: 'prompt --dur', message: /as fields/ });
  t.match(refusal(sdx({ metadata: { content: [{ type: 'text', text: 'a --rs 1080p' }] } })), { param: 'metadata.content[0].text --rs' });
  t.ok(readDsxSubmission(sdx({ prompt: 'a fox --constructor of dreams' }) as never), 'a word that is no marker stays prose');
});

t.test('text-to-video needs a prompt; metadata options are checked', async (t) => {
  t.match(refusal(sdx({})), { param: 'prompt', message: /needs a prompt/ });
  t.match(refusal(sdx({ prompt: '  ' })), { param: 'prompt' });
  t.ok(readDsxSubmission(sdx({ metadata: { content: [video('asset://asset-2')] } }) as never), 'a reference alone needs no prompt');
  const fields = readDsxSubmission(sdx({ prompt: 'a', metadata: { seed: -1, watermark: false, generate_audio: false, return_last_frame: true, callback_url: 'https://h.example/cb' } }) as never).fields;
  t.match(fields, { seed: -1, watermark: false, generate_audio: false, return_last_frame: true, callback_url: 'https://h.example/cb' });
  t.match(refusal(sdx({ prompt: 'a', metadata: { seed: 2 ** 32 } })), { param: 'metadata.seed' });
  t.match(refusal(sdx({ prompt: 'a', metadata: { callback_url: 'ftp://h.example' } })), { param: 'metadata.callback_url' });
  t.match(refusal(sdx({ prompt: 'a', metadata: { service_tier: 'flex' } })), { param: 'metadata.service_tier', message: /unknown field/ });
  t.match(refusal(sdx({ prompt: 'a', seconds: 5 })), { param: 'seconds', message: /unknown field/ });
});
