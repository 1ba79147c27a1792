import type { LightMyRequestResponse } from 'fastify';
import t, { type Test } from 'tap';
import {
  pcmTone,
  speechAudio,
  speechSeconds,
  startFakeOpenAiUpstream,
  wavFile,
  type FakeOpenAiUpstream,
  type SpeechFormat,
} from '../fakes/openai/fake-openai-upstream.js';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { issueToken, lastAttempts, storedToken, waitForToken, type IssuedToken } from '../helpers/gateway-scenario.js';

// tts-1 costs 0.015 USD per 1000 characters: 7.5 quota units a character at 500000 units per
// USD (tts-1-hd twice that). stt-1 costs 0.006 USD a minute: 3000 units a minute, 50 a second.
const pricing = {
  'tts-1': { per_1k_chars: 0.015 },
  'tts-1-hd': { per_1k_chars: 0.03 },
  'stt-1': { per_minute: 0.006 },
};
const unitsPerSecondOfAudio = 50;

const upstreamKey = 'openai-audio-upstream-key';

async function startOpenAi(t: Test): Promise<FakeOpenAiUpstream> {
  const fake = await startFakeOpenAiUpstream({ apiKey: upstreamKey });
  t.teardown(() => fake.close());
  return fake;
}

function audioChannel(name: string, baseUrl: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name,
    plugin: 'audio',
    base_url: baseUrl,
    api_key: upstreamKey,
    models: ['tts-1', 'tts-1-hd', 'stt-1'],
    model_map: { 'stt-1': 'whisper-1' },
    groups: ['default'],
    ...fields,
  };
}

/** The gateway on real SQLite storage with the audio prices; `overrides` replace top-level config sections. */
const audioGateway = (t: Test, overrides: Record<string, unknown>): Promise<TestApp> => buildTestApp(t, 'sqlite', { pricing, ...overrides });

function postSpeech(gateway: TestApp, token: IssuedToken, body: unknown): Promise<LightMyRequestResponse> {
  return gateway.app.inject({ method: 'POST', url: '/v1/audio/speech', headers: { ...token.bearer, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
}

/** An uploaded file: its name, bytes and (optionally) the part's media type. */
interface Upload {
  name: string;
  bytes: Uint8Array;
  type?: string;
  /** The part's field name; `file` unless a test says otherwise. */
  field?: string;
}

/** A multipart form as a client library writes it. */
async function form(fields: Record<string, string | string[]>, file?: Upload): Promise<{ body: Buffer; contentType: string }> {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const one of [value].flat()) data.append(name, one);
  if (file !== undefined) data.append(file.field ?? 'file', new Blob([file.bytes], file.type === undefined ? {} : { type: file.type }), file.name);
  const request = new Request('http://client.invalid/', { method: 'POST', body: data });
  return { body: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type')! };
}

async function postForm(
  gateway: TestApp,
  headers: Record<string, string>,
  path: string,
  fields: Record<string, string | string[]>,
  file?: Upload,
): Promise<LightMyRequestResponse> {
  const { body, contentType } = await form(fields, file);
  return gateway.app.inject({ method: 'POST', url: path, headers: { ...headers, 'content-type': contentType }, payload: body });
}

/** The same form sent straight to the fake, for what the upstream itself answers. */
async function postFormToUpstream(fake: FakeOpenAiUpstream, path: string, fields: Record<string, string | string[]>, file: Upload): Promise<{ body: string; contentType: string }> {
  const { body, contentType } = await form(fields, file);
  const response = await fetch(`${fake.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${upstreamKey}`, 'content-type': contentType }, body });
  return { body: await response.text(), contentType: response.headers.get('content-type') ?? '' };
}

/** The form the upstream received in its last request. */
async function lastUpstreamForm(fake: FakeOpenAiUpstream): Promise<FormData> {
  const sent = fake.requests.at(-1)!;
  const contentType = sent.headers['content-type'] as string;
  return new Request('http://upstream.invalid/', { method: 'POST', headers: { 'content-type': contentType }, body: sent.raw }).formData();
}

/** `seconds` of a 440 Hz tone as a WAV file. */
const wav = (seconds: number): Upload => ({ name: 'clip.wav', bytes: wavFile(pcmTone(seconds)), type: 'audio/wav' });

const speechFormats: Array<[SpeechFormat, string]> = [
  ['mp3', 'audio/mpeg'],
  ['opus', 'audio/opus'],
  ['aac', 'audio/aac'],
  ['flac', 'audio/flac'],
  ['wav', 'audio/wav'],
  ['pcm', 'audio/pcm'],
];

/**
 * The token once every earlier request has settled. A body's settlement runs after the client
 * has read it, so a test reading its starting balance at once can come before the previous
 * test's charge; until it lands, its reservation leaves remain + used below the 5,000,000 the
 * token was issued with.
 */
const settledToken = (gateway: TestApp, token: IssuedToken) =>
  waitForToken(gateway, token, (stored) => stored.remain_quota + stored.used_quota === 5_000_000);

const usedUnits = async (gateway: TestApp, token: IssuedToken, before: number): Promise<number> =>
  (await waitForToken(gateway, token, (stored) => stored.used_quota !== before)).used_quota - before;

t.test('speech is synthesized by the upstream and streamed back as it sent it', async (t) => {
  const fake = await startOpenAi(t);
  const gateway = await audioGateway(t, { providers: [audioChannel('audio-main', fake.url)] });
  const token = await issueToken(t, gateway);
  const input = 'The quick brown fox jumps over the lazy dog.';

  for (const [format, contentType] of speechFormats) {
    t.test(`${format} arrives as ${contentType}, byte for byte`, async (t) => {
      const response = await postSpeech(gateway, token, { model: 'tts-1', input, voice: 'alloy', response_format: format });
      t.equal(response.statusCode, 200);
      t.equal(response.headers['content-type'], contentType);
      t.ok(response.rawPayload.equals(speechAudio(format, speechSeconds(input))), 'the exact upstream bytes');
      const sent = fake.requests.at(-1)!;
      t.equal(sent.path, '/v1/audio/speech');
      t.equal(sent.headers.authorization, `Bearer ${upstreamKey}`, "the channel's key as a Bearer token");
      t.strictSame(sent.json, { model: 'tts-1', input, voice: 'alloy', response_format: format });
    });
  }

  t.test('without response_format the audio is mp3, and speed is passed on', async (t) => {
    const response = await postSpeech(gateway, token, { model: 'tts-1-hd', input: 'Hello there.', voice: 'nova', speed: 1.5 });
    t.equal(response.statusCode, 200);
    t.equal(response.headers['content-type'], 'audio/mpeg');
    t.strictSame(fake.requests.at(-1)!.json, { model: 'tts-1-hd', input: 'Hello there.', voice: 'nova', response_format: 'mp3', speed: 1.5 });
  });

  t.test('audio the upstream writes in pieces reaches the client whole', async (t) => {
    const pieces = [Buffer.from('first piece,'), Buffer.from(' second piece,'), Buffer.from(' last piece')];
    fake.next({ audio: pieces, chunkDelayMs: 20 });
    const before = (await settledToken(gateway, token)).used_quota;
    const response = await postSpeech(gateway, token, { model: 'tts-1', input: 'pieces', voice: 'echo', response_format: 'pcm' });
    t.equal(response.statusCode, 200);
    t.ok(response.rawPayload.equals(Buffer.concat(pieces)));
    t.equal(await usedUnits(gateway, token, before), 45, '6 characters at 0.015 USD per 1000');
  });

  t.test('speech is billed per_1k_chars of the input', async (t) => {
    const before = await settledToken(gateway, token);
    const response = await postSpeech(gateway, token, { model: 'tts-1', input: 'a'.repeat(1000), voice: 'onyx' });
    t.equal(response.statusCode, 200);
    t.equal(await usedUnits(gateway, token, before.used_quota), 7500, '1000 characters at 0.015 USD');
    const after = await storedToken(gateway, token);
    t.equal(after.remain_quota, before.remain_quota - 7500, 'remain_quota moves with used_quota');

    const hdBefore = after.used_quota;
    const hd = await postSpeech(gateway, token, { model: 'tts-1-hd', input: 'Hello there.', voice: 'shimmer' });
    t.equal(hd.statusCode, 200);
    t.equal(await usedUnits(gateway, token, hdBefore), 180, '12 characters at 0.03 USD per 1000');
  });

  t.test('characters are counted as the limit counts them, not in UTF-16 units', async (t) => {
    const before = await settledToken(gateway, token);
    const response = await postSpeech(gateway, token, { model: 'tts-1', input: '🎵🎵🎵🎵', voice: 'fable' });
    t.equal(response.statusCode, 200);
    t.equal(await usedUnits(gateway, token, before.used_quota), 30, 'four characters');
  });

  t.test('an input of 4096 characters is accepted and one of 4097 is refused before any upstream call', async (t) => {
    t.equal((await postSpeech(gateway, token, { model: 'tts-1', input: 'x'.repeat(4096), voice: 'alloy' })).statusCode, 200);
    const sentBefore = fake.requests.length;
    const response = await postSpeech(gateway, token, { model: 'tts-1', input: 'x'.repeat(4097), voice: 'alloy' });
    t.equal(response.statusCode, 400);
    t.match(response.json(), { error: { message: /^input: expected at most 4096 characters/, type: 'invalid_request_error', code: 'invalid_request', param: 'input' } });
    t.equal(fake.requests.length, sentBefore, 'the upstream was not asked');
  });

  t.test('a voice outside the six is refused with the list', async (t) => {
    const response = await postSpeech(gateway, token, { model: 'tts-1', input: 'hi', voice: 'marin' });
    t.equal(response.statusCode, 400);
    t.match(response.json(), { error: { message: 'voice: expected one of alloy, echo, fable, onyx, nova, shimmer', param: 'voice', code: 'invalid_request' } });
  });

  t.test('a misspelt field, a missing input, a bad format or speed are 400s that name the field', async (t) => {
    const cases: Array<[Record<string, unknown>, RegExp, string]> = [
      [{ model: 'tts-1', input: 'hi', voice: 'alloy', format: 'wav' }, /unknown field "format"/, 'format'],
      [{ model: 'tts-1', voice: 'alloy' }, /^input: required/, 'input'],
      [{ model: 'tts-1', input: 'hi', voice: 'alloy', response_format: 'ogg' }, /^response_format: expected one of mp3, opus, aac, flac, wav, pcm/, 'response_format'],
      [{ model: 'tts-1', input: 'hi', voice: 'alloy', speed: 5 }, /^speed: expected at most 4/, 'speed'],
    ];
    for (const [body, message, param] of cases) {
      const response = await postSpeech(gateway, token, body);
      t.equal(response.statusCode, 400, param);
      t.match(response.json(), { error: { message, param, type: 'invalid_request_error' } });
    }
  });

  t.test('a bad key is 401 in the OpenAI shape', async (t) => {
    const response = await gateway.app.inject({
      method: 'POST',
      url: '/v1/audio/speech',
      headers: { authorization: 'Bearer sk-wrong', 'content-type': 'application/json' },
      payload: JSON.stringify({ model: 'tts-1', input: 'hi', voice: 'alloy' }),
    });
    t.equal(response.statusCode, 401);
    t.match(response.json(), { error: { type: 'authentication_error', message: String } });
  });

  t.test('an upstream 400 is passed back with its message and nothing is billed', async (t) => {
    const before = await settledToken(gateway, token);
    fake.next({ error: 400, message: 'Input contains disallowed content.' });
    const response = await postSpeech(gateway, token, { model: 'tts-1', input: 'hi', voice: 'alloy' });
    t.equal(response.statusCode, 400);
    t.match(response.json(), { error: { message: /Input contains disallowed content/, code: 'upstream_invalid_request' } });
    t.match(await storedToken(gateway, token), { used_quota: before.used_quota, remain_quota: before.remain_quota });
  });
});

t.test('transcriptions and translations pass the transcript through in every format', async (t) => {
  const fake = await startOpenAi(t);
  const gateway = await audioGateway(t, { providers: [audioChannel('audio-main', fake.url)] });
  const token = await issueToken(t, gateway);
  const formats: Array<[string, RegExp]> = [
    ['json', /^application\/json/],
    ['text', /^text\/plain/],
    ['srt', /^text\/plain/],
    ['verbose_json', /^application\/json/],
    ['vtt', /^text\/(plain|vtt)/],
  ];

  for (const [path, task] of [
    ['/v1/audio/transcriptions', 'Transcript'],
    ['/v1/audio/translations', 'Translation'],
  ] as const) {
    for (const [format, contentType] of formats) {
      t.test(`${path} as ${format} is the upstream's answer, byte for byte`, async (t) => {
        const file = wav(2);
        const response = await postForm(gateway, token.bearer, path, { model: 'stt-1', response_format: format }, file);
        t.equal(response.statusCode, 200);
        t.match(response.headers['content-type'], contentType);
        const upstream = await postFormToUpstream(fake, path, { model: 'whisper-1', response_format: format }, file);
        t.equal(response.payload, upstream.body, 'what the upstream answers for the same form');
        t.ok(response.payload.includes(`${task} of clip.wav.`), 'the transcript');
      });
    }
  }

  t.test('the upstream gets the file as uploaded, the mapped model and every field the client sent', async (t) => {
    const file = wav(1);
    const fields = { model: 'stt-1', response_format: 'verbose_json', language: 'de', prompt: 'Namen: Jürgen', temperature: '0.2', 'timestamp_granularities[]': ['word', 'segment'] };
    const response = await postForm(gateway, token.bearer, '/v1/audio/transcriptions', fields, file);
    t.equal(response.statusCode, 200);
    const body = response.json();
    t.match(body, { task: 'transcribe', language: 'german', duration: 1, text: 'Transcript of clip.wav.', words: Array, segments: Array });

    const sent = fake.requests.at(-1)!;
    t.equal(sent.path, '/v1/audio/transcriptions');
    t.equal(sent.headers.authorization, `Bearer ${upstreamKey}`);
    const upstreamForm = await lastUpstreamForm(fake);
    const upstreamFile = upstreamForm.get('file') as File;
    t.equal(upstreamFile.name, 'clip.wav');
    t.ok(Buffer.from(await upstreamFile.arrayBuffer()).equals(Buffer.from(file.bytes)), 'the file byte for byte');
    t.equal(upstreamForm.get('model'), 'whisper-1');
    t.equal(upstreamForm.get('response_format'), 'verbose_json');
    t.equal(upstreamForm.get('language'), 'de');
    t.equal(upstreamForm.get('prompt'), 'Namen: Jürgen');
    t.equal(upstreamForm.get('temperature'), '0.2');
    t.strictSame(upstreamForm.getAll('timestamp_granularities[]'), ['word', 'segment']);
  });

  t.test('timestamp_granularities without brackets is read as the same field', async (t) => {
    const response = await postForm(gateway, token.bearer, '/v1/audio/transcriptions', { model: 'stt-1', response_format: 'verbose_json', timestamp_granularities: 'word' }, wav(1));
    t.equal(response.statusCode, 200);
    t.ok(Array.isArray(response.json().words), 'words were asked for');
    t.strictSame((await lastUpstreamForm(fake)).getAll('timestamp_granularities[]'), ['word']);
  });

  t.test('a file name without an extension is typed by the part and sent with one', async (t) => {
    const response = await postForm(gateway, token.bearer, '/v1/audio/transcriptions', { model: 'stt-1' }, { name: 'recording', bytes: wavFile(pcmTone(1)), type: 'audio/x-wav' });
    t.equal(response.statusCode, 200);
    t.equal(((await lastUpstreamForm(fake)).get('file') as File).name, 'recording.wav');
    t.equal(response.json().text, 'Transcript of recording.wav.');
  });

  t.test('an upstream error body is passed back and not retried', async (t) => {
    const sentBefore = fake.requests.length;
    fake.next({ error: 400, message: 'Audio file might be corrupted or unsupported' });
    const response = await postForm(gateway, token.bearer, '/v1/audio/transcriptions', { model: 'stt-1' }, wav(1));
    t.equal(response.statusCode, 400);
    t.match(response.json(), { error: { message: /Audio file might be corrupted/, type: 'invalid_request_error' } });
    t.equal(fake.requests.length, sentBefore + 1);
  });
});

t.test('transcription is billed per_minute of the audio', async (t) => {
  const fake = await startOpenAi(t);
  const gateway = await audioGateway(t, { providers: [audioChannel('audio-main', fake.url)] });
  const token = await issueToken(t, gateway);
  const transcribe = (fields: Record<string, string>, file: Upload) => postForm(gateway, token.bearer, '/v1/audio/transcriptions', { model: 'stt-1', ...fields }, file);

  t.test("by the upstream's usage seconds when it reports them", async (t) => {
    const before = (await settledToken(gateway, token)).used_quota;
    fake.next({ duration: 36.71 });
    const response = await transcribe({}, wav(1.5));
    t.equal(response.statusCode, 200);
    t.strictSame(response.json().usage, { type: 'duration', seconds: 37 });
    t.equal(await usedUnits(gateway, token, before), 37 * unitsPerSecondOfAudio, '37 seconds, not the 1.5 s of the file');
  });

  t.test('by the verbose duration of a translation, which reports no usage', async (t) => {
    const before = (await settledToken(gateway, token)).used_quota;
    fake.next({ duration: 12 });
    const response = await postForm(gateway, token.bearer, '/v1/audio/translations', { model: 'stt-1', response_format: 'verbose_json' }, wav(1.5));
    t.equal(response.statusCode, 200);
    t.equal(response.json().duration, 12);
    t.equal(await usedUnits(gateway, token, before), 12 * unitsPerSecondOfAudio);
  });

  t.test("by the WAV's own length when the upstream reports none", async (t) => {
    const before = (await settledToken(gateway, token)).used_quota;
    fake.next({ duration: null });
    const response = await transcribe({}, wav(1.5));
    t.equal(response.statusCode, 200);
    t.notOk('usage' in response.json(), 'the upstream said nothing');
    t.equal(await usedUnits(gateway, token, before), 1.5 * unitsPerSecondOfAudio);
  });

  t.test("by the file's own length for a text transcript, which carries no usage", async (t) => {
    const before = (await settledToken(gateway, token)).used_quota;
    const response = await transcribe({ response_format: 'srt' }, wav(3));
    t.equal(response.statusCode, 200);
    t.equal(await usedUnits(gateway, token, before), 3 * unitsPerSecondOfAudio);
  });

  t.test('by the size of a file whose length cannot be read, at 16000 bytes a second', async (t) => {
    const before = (await settledToken(gateway, token)).used_quota;
    fake.next({ duration: null });
    const response = await transcribe({}, { name: 'voice.mp3', bytes: Buffer.alloc(32_000, 0x41), type: 'audio/mpeg' });
    t.equal(response.statusCode, 200);
    t.equal(await usedUnits(gateway, token, before), 2 * unitsPerSecondOfAudio, 'two seconds');
  });
});

t.test('bad uploads are 4xx in the OpenAI shape, before any upstream call', async (t) => {
  const fake = await startOpenAi(t);
  const gateway = await audioGateway(t, { audio: { max_upload_mb: 1 }, providers: [audioChannel('audio-main', fake.url)] });
  const token = await issueToken(t, gateway);
  const transcribe = (fields: Record<string, string | string[]>, file?: Upload) => postForm(gateway, token.bearer, '/v1/audio/transcriptions', fields, file);
  const refused = (t: Test, response: LightMyRequestResponse, status: number, message: RegExp, param?: string) => {
    t.equal(response.statusCode, status);
    t.match(response.json(), { error: { message, type: 'invalid_request_error', code: String, ...(param === undefined ? {} : { param }) } });
    t.equal(fake.requests.length, 0, 'the upstream was not asked');
  };
  t.beforeEach(() => fake.reset());

  t.test('an upload over audio.max_upload_mb is 413 and says the limit', async (t) => {
    const response = await transcribe({ model: 'stt-1' }, { name: 'long.wav', bytes: Buffer.alloc(1024 * 1024 + 1), type: 'audio/wav' });
    refused(t, response, 413, /upload limit of 1 MB/, 'file');
    t.equal(response.json().error.code, 'file_too_large');
  });

  t.test('an unsupported file type is 400 and lists the supported ones', async (t) => {
    refused(t, await transcribe({ model: 'stt-1' }, { name: 'notes.txt', bytes: Buffer.from('hello'), type: 'text/plain' }), 400, /flac, mp3, mp4, mpeg, mpga, m4a, ogg, wav, webm/, 'file');
    refused(t, await transcribe({ model: 'stt-1' }, { name: 'blob', bytes: Buffer.from('hello'), type: 'application/octet-stream' }), 400, /not a supported audio type/, 'file');
    refused(t, await transcribe({ model: 'stt-1' }, { name: 'clip.aac', bytes: Buffer.from('hello'), type: 'audio/wav' }), 400, /decided by the file name's extension/);
  });

  t.test('a missing file, an empty file, a missing model are 400s that name the field', async (t) => {
    refused(t, await transcribe({ model: 'stt-1' }), 400, /^file: required/, 'file');
    refused(t, await transcribe({ model: 'stt-1' }, { name: 'empty.wav', bytes: new Uint8Array(0), type: 'audio/wav' }), 400, /"empty.wav" is empty/, 'file');
    refused(t, await transcribe({}, wav(1)), 400, /^model: required/, 'model');
    refused(t, await transcribe({ model: 'stt-1', file: 'not a file' }, wav(1)), 400, /^file: expected an audio file part/, 'file');
  });

  t.test('unknown or repeated fields are 400s that name them', async (t) => {
    refused(t, await transcribe({ model: 'stt-1', stream: 'true' }, wav(1)), 400, /unknown field "stream"/, 'stream');
    refused(t, await transcribe({ model: 'stt-1' }, { ...wav(1), field: 'audio' }), 400, /unknown field "audio"/, 'audio');
    refused(t, await transcribe({ model: ['stt-1', 'stt-1'] }, wav(1)), 400, /^model: sent more than once/, 'model');
  });

  t.test('bad values are 400s that say what is allowed', async (t) => {
    refused(t, await transcribe({ model: 'stt-1', response_format: 'xml' }, wav(1)), 400, /^response_format: expected one of json, text, srt, verbose_json, vtt/, 'response_format');
    refused(t, await transcribe({ model: 'stt-1', temperature: '1.5' }, wav(1)), 400, /^temperature: expected a number from 0 to 1/, 'temperature');
    refused(t, await transcribe({ model: 'stt-1', temperature: 'warm' }, wav(1)), 400, /^temperature:/, 'temperature');
    refused(t, await transcribe({ model: 'stt-1', language: 'english' }, wav(1)), 400, /^language: expected an ISO-639-1 code/, 'language');
    refused(t, await transcribe({ model: 'stt-1', 'timestamp_granularities[]': 'word' }, wav(1)), 400, /needs response_format verbose_json/, 'timestamp_granularities[]');
    refused(t, await transcribe({ model: 'stt-1', response_format: 'verbose_json', 'timestamp_granularities[]': 'sentence' }, wav(1)), 400, /expected word or segment/);
  });

  t.test('language and timestamp granularities are for transcriptions only', async (t) => {
    const response = await postForm(gateway, token.bearer, '/v1/audio/translations', { model: 'stt-1', language: 'de' }, wav(1));
    refused(t, response, 400, /unknown field "language" for translations/, 'language');
  });

  t.test('a JSON body, another content type, or no body at all is refused with a hint to send a form', async (t) => {
    const post = (headers: Record<string, string>, payload?: string) =>
      gateway.app.inject({ method: 'POST', url: '/v1/audio/transcriptions', headers: { ...token.bearer, ...headers }, ...(payload === undefined ? {} : { payload }) });
    refused(t, await post({ 'content-type': 'application/json' }, JSON.stringify({ model: 'stt-1', file: 'clip.wav' })), 400, /multipart\/form-data/);
    refused(t, await post({ 'content-type': 'audio/wav' }, 'RIFF....'), 415, /multipart\/form-data/);
    refused(t, await post({}), 400, /multipart\/form-data/);
  });

  t.test('a broken multipart body is a 400, not a 500', async (t) => {
    const response = await gateway.app.inject({
      method: 'POST',
      url: '/v1/audio/transcriptions',
      headers: { ...token.bearer, 'content-type': 'multipart/form-data; boundary=xyz' },
      payload: '--xyz\r\nContent-Disposition: form-data; name="model"\r\n\r\nstt-1\r\n--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\n\r\nRIFF',
    });
    refused(t, response, 400, /./);
  });

  t.test('a bad key is 401 before the upload is read', async (t) => {
    const response = await postForm(gateway, { authorization: 'Bearer sk-wrong' }, '/v1/audio/transcriptions', { model: 'stt-1' }, { name: 'long.wav', bytes: Buffer.alloc(2 * 1024 * 1024), type: 'audio/wav' });
    t.equal(response.statusCode, 401, 'not 413: the key is checked first');
    t.match(response.json(), { error: { type: 'authentication_error' } });
    const missing = await postForm(gateway, {}, '/v1/audio/translations', { model: 'stt-1' }, wav(1));
    t.equal(missing.statusCode, 401);
    t.equal(fake.requests.length, 0);
  });
});

t.test('an upstream 5xx moves audio requests to the next channel', async (t) => {
  const first = await startOpenAi(t);
  const second = await startOpenAi(t);
  const gateway = await audioGateway(t, { providers: [audioChannel('audio-first', first.url, { priority: 10 }), audioChannel('audio-second', second.url, { priority: 0 })] });
  const token = await issueToken(t, gateway);

  t.test('speech', async (t) => {
    first.next({ error: 503 });
    const before = (await settledToken(gateway, token)).used_quota;
    const response = await postSpeech(gateway, token, { model: 'tts-1', input: 'fail over', voice: 'alloy', response_format: 'wav' });
    t.equal(response.statusCode, 200);
    t.equal(response.headers['content-type'], 'audio/wav');
    t.ok(response.rawPayload.equals(speechAudio('wav', speechSeconds('fail over'))));
    t.strictSame(lastAttempts(gateway), ['audio-first:failed', 'audio-second:success']);
    t.equal(await usedUnits(gateway, token, before), 68, 'billed once: 9 characters at 0.015 USD per 1000, rounded up');
  });

  t.test('transcription, with the whole upload sent again', async (t) => {
    const before = (await settledToken(gateway, token)).used_quota;
    first.next({ error: 500 });
    const file = wav(2);
    const response = await postForm(gateway, token.bearer, '/v1/audio/transcriptions', { model: 'stt-1' }, file);
    t.equal(response.statusCode, 200);
    t.equal(response.json().text, 'Transcript of clip.wav.');
    t.strictSame(lastAttempts(gateway), ['audio-first:failed', 'audio-second:success']);
    const resent = await lastUpstreamForm(second);
    t.ok(Buffer.from(await (resent.get('file') as File).arrayBuffer()).equals(Buffer.from(file.bytes)));
    t.equal(await usedUnits(gateway, token, before), 2 * unitsPerSecondOfAudio, 'billed once');
  });
});
