import type { LightMyRequestResponse } from 'fastify';
import t, { type Test } from 'tap';
import { startFakeOpenAiUpstream } from '../fakes/openai/fake-openai-upstream.js';
import { chatBody, gxChannel, issueToken, postChat, scenarioGateway, scenarioPricing, startGx } from '../helpers/gateway-scenario.js';

// Found by an attack from outside: a 1 MiB multipart field name was echoed back in an 82 KB
// error. An error may point at what the client sent, but repeats only a short prefix of it.

const boundary = 'echoboundary';
const upstreamKey = 'upstream-key';

/** A multipart body whose parts are text fields, and a small file under `fileField`. */
function form(fields: Array<[string, string]>, fileField: string, filename: string): Buffer {
  const parts = fields.map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="${fileField}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\nRIFF0000WAVE\r\n`);
  return Buffer.from(`${parts.join('')}--${boundary}--\r\n`, 'latin1');
}

/** The answer refuses with a 4xx that quotes the start of `sent` and stays small. */
function quotesOnlyAPrefix(t: Test, response: LightMyRequestResponse, sent: string): void {
  t.ok(response.statusCode >= 400 && response.statusCode < 500, `a client error (${response.statusCode})`);
  t.ok(response.payload.includes(sent.slice(0, 50)), 'the message points at what was sent');
  t.ok(response.payload.length < 1500, `the answer stays small (${response.payload.length} bytes for ${sent.length} sent)`);
}

t.test('an error quotes at most a short prefix of a name or value the client sent', async (t) => {
  const openAi = await startFakeOpenAiUpstream({ apiKey: upstreamKey });
  t.teardown(() => openAi.close());
  const gx = await startGx(t);
  const channel = (name: string, plugin: string, models: string[], fields: Record<string, unknown> = {}) => ({ name, plugin, base_url: openAi.url, api_key: upstreamKey, models, ...fields });
  const gateway = await scenarioGateway(t, {
    server: { body_limit_mb: 4 },
    pricing: { ...scenarioPricing, 'gi-2': { per_image: 0.04 }, 'sr-2': { per_second: 0.1 }, 'stt-1': { per_minute: 0.006 } },
    providers: [gxChannel('gx-main', gx.url), channel('gi', 'gi', ['gi-2']), channel('sr', 'sr', ['sr-2']), channel('audio', 'audio', ['stt-1'], { model_map: { 'stt-1': 'whisper-1' } })],
  });
  const token = await issueToken(t, gateway);
  const post = (url: string, payload: Buffer | string, contentType: string) =>
    gateway.app.inject({ method: 'POST', url, headers: { ...token.bearer, 'content-type': contentType }, payload });
  const multipart = `multipart/form-data; boundary=${boundary}`;
  const longName = (letter: string, length: number) => `${letter.repeat(60)}-${'x'.repeat(length)}`;

  t.test('a transcription form field name of 60 KB', async (t) => {
    const name = longName('f', 60_000);
    const response = await post('/v1/audio/transcriptions', form([['model', 'stt-1'], [name, 'value']], 'file', 'clip.wav'), multipart);
    quotesOnlyAPrefix(t, response, name);
    t.ok((response.json().error.param as string).length <= 200, 'and so does the param');
  });

  t.test('a transcription file name of 60 KB', async (t) => {
    const filename = `${longName('n', 60_000)}.txt`;
    quotesOnlyAPrefix(t, await post('/v1/audio/transcriptions', form([['model', 'stt-1']], 'file', filename), multipart), filename);
  });

  t.test('an image edit form field name of 60 KB', async (t) => {
    const name = longName('i', 60_000);
    quotesOnlyAPrefix(t, await post('/v1/images/edits', form([['model', 'gi-2'], ['prompt', 'a boat'], [name, 'value']], 'image[]', 'in.png'), multipart), name);
  });

  t.test('a video form file field of 60 KB', async (t) => {
    const name = longName('v', 60_000);
    quotesOnlyAPrefix(t, await post('/v1/video/generations', form([['model', 'sr-2'], ['prompt', 'a boat']], name, 'in.png'), multipart), name);
  });

  t.test('a JSON video request with an unknown field of 1 MiB', async (t) => {
    const name = longName('j', 1024 * 1024);
    const response = await post('/v1/video/generations', JSON.stringify({ model: 'sr-2', prompt: 'a boat', [name]: 1 }), 'application/json');
    quotesOnlyAPrefix(t, response, name);
    t.ok((response.json().error.param as string).length <= 200, 'and so does the param');
  });

  t.test('a chat model id of 1 MiB', async (t) => {
    const model = longName('m', 1024 * 1024);
    quotesOnlyAPrefix(t, await postChat(gateway, token, chatBody('hello', { model })), model);
  });

  t.test('a JSON image request with an unknown field of 1 MiB', async (t) => {
    const name = longName('k', 1024 * 1024);
    quotesOnlyAPrefix(t, await post('/v1/images/generations', JSON.stringify({ model: 'gi-2', prompt: 'a boat', [name]: 1 }), 'application/json'), name);
  });

  t.test('a path of 8 KB that no route serves', async (t) => {
    const path = `/${longName('p', 8000)}`;
    quotesOnlyAPrefix(t, await gateway.app.inject({ method: 'GET', url: path }), path);
  });

  t.test('no upstream was asked', async (t) => {
    t.equal(openAi.requests.length, 0);
    t.equal(gx.requests.length, 0);
  });
});
