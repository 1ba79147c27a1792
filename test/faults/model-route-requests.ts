import type { LightMyRequestResponse } from 'fastify';
import { tinyPngBase64 } from '../fakes/gx/fake-gx-upstream.js';
import { pcmTone, wavFile } from '../fakes/openai/fake-openai-upstream.js';
import type { TestApp } from '../helpers/build-test-app.js';
import type { IssuedToken } from '../helpers/gateway-scenario.js';
import type { Dialect } from './fault-scene.js';

/** A POST model route as a client calls it with whichever model it names. */
export interface ModelRouteRequest {
  name: string;
  dialect: Dialect;
  /** The model the fault scene serves on this route. */
  model: string;
  /** A model the fault scene serves, but through a provider that does not implement this route. */
  otherFamilyModel: string;
  send(gateway: TestApp, token: IssuedToken, model: string): Promise<LightMyRequestResponse>;
}

const prompt = 'one two three four';
const png = `data:image/png;base64,${tinyPngBase64}`;
const wav = wavFile(pcmTone(1));

function postJson(gateway: TestApp, token: IssuedToken, url: string, body: unknown): Promise<LightMyRequestResponse> {
  return gateway.app.inject({ method: 'POST', url, headers: { ...token.bearer, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
}

/** A multipart upload of one short WAV file and `fields`, encoded as a browser would. */
async function postAudioForm(gateway: TestApp, token: IssuedToken, url: string, fields: Record<string, string>): Promise<LightMyRequestResponse> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([wav], { type: 'audio/wav' }), 'clip.wav');
  const encoded = new Request('http://client.invalid/', { method: 'POST', body: form });
  const payload = Buffer.from(await encoded.arrayBuffer());
  return gateway.app.inject({ method: 'POST', url, headers: { ...token.bearer, 'content-type': encoded.headers.get('content-type')! }, payload });
}

const native = (method: string, body: (model: string) => unknown, models: Pick<ModelRouteRequest, 'model' | 'otherFamilyModel'>): ModelRouteRequest => ({
  name: `native ${method.split('?')[0]}`,
  dialect: 'native',
  ...models,
  send: (gateway, token, model) => postJson(gateway, token, `/v1beta/models/${model}:${method}`, body(model)),
});

const contents = () => ({ contents: [{ role: 'user', parts: [{ text: prompt }] }] });

/** Every POST route that names a model, JSON and multipart. */
export const modelRouteRequests: ModelRouteRequest[] = [
  {
    name: 'chat',
    dialect: 'openai',
    model: 'gx-2.5-pro',
    otherFamilyModel: 'tts-1',
    send: (gateway, token, model) => postJson(gateway, token, '/v1/chat/completions', { model, messages: [{ role: 'user', content: prompt }] }),
  },
  {
    name: 'chat stream',
    dialect: 'openai',
    model: 'gp-5.4',
    otherFamilyModel: 'sr-2',
    send: (gateway, token, model) => postJson(gateway, token, '/v1/chat/completions', { model, stream: true, messages: [{ role: 'user', content: prompt }] }),
  },
  {
    name: 'responses',
    dialect: 'openai',
    model: 'gp-5.4',
    // Not a chat model: a chat family (gx) is served on Responses through a translator.
    otherFamilyModel: 'gi-2',
    send: (gateway, token, model) => postJson(gateway, token, '/v1/responses', { model, input: prompt }),
  },
  {
    name: 'responses stream',
    dialect: 'openai',
    model: 'gp-5.4',
    otherFamilyModel: 'stt-1',
    send: (gateway, token, model) => postJson(gateway, token, '/v1/responses', { model, input: prompt, stream: true }),
  },
  // Not a chat model: a chat family (gp) is served on the native API through a translator.
  native('generateContent', contents, { model: 'gx-2.5-pro', otherFamilyModel: 'sr-2' }),
  native('streamGenerateContent?alt=sse', contents, { model: 'gx-2.5-pro', otherFamilyModel: 'gi-2' }),
  native('embedContent', () => ({ content: { parts: [{ text: prompt }] } }), { model: 'gx-2.5-pro', otherFamilyModel: 'tts-1' }),
  native('batchEmbedContents', (model) => ({ requests: [{ model: `models/${model}`, content: { parts: [{ text: prompt }] } }] }), {
    model: 'gx-2.5-pro',
    otherFamilyModel: 'gp-5.4',
  }),
  {
    name: 'images generations',
    dialect: 'images',
    model: 'gi-2',
    otherFamilyModel: 'sr-2',
    send: (gateway, token, model) => postJson(gateway, token, '/v1/images/generations', { model, prompt: 'a lighthouse at dusk', quality: 'low' }),
  },
  {
    name: 'images edits',
    dialect: 'images',
    model: 'gi-2',
    otherFamilyModel: 'gp-5.4',
    send: (gateway, token, model) => postJson(gateway, token, '/v1/images/edits', { model, prompt: 'make it night', image: png, quality: 'low' }),
  },
  {
    name: 'audio speech',
    dialect: 'openai',
    model: 'tts-1',
    otherFamilyModel: 'gp-5.4',
    send: (gateway, token, model) => postJson(gateway, token, '/v1/audio/speech', { model, input: prompt, voice: 'alloy' }),
  },
  {
    name: 'audio transcriptions',
    dialect: 'openai',
    model: 'stt-1',
    otherFamilyModel: 'gx-2.5-pro',
    send: (gateway, token, model) => postAudioForm(gateway, token, '/v1/audio/transcriptions', { model }),
  },
  {
    name: 'audio translations',
    dialect: 'openai',
    model: 'stt-1',
    otherFamilyModel: 'gi-2',
    send: (gateway, token, model) => postAudioForm(gateway, token, '/v1/audio/translations', { model }),
  },
  {
    name: 'video submit',
    dialect: 'openai',
    model: 'sr-2',
    otherFamilyModel: 'gi-2',
    send: (gateway, token, model) => postJson(gateway, token, '/v1/video/generations', { model, prompt: 'a lighthouse at dusk', seconds: 4 }),
  },
  {
    name: 'videos',
    dialect: 'openai',
    model: 'sr-2',
    otherFamilyModel: 'tts-1',
    send: (gateway, token, model) => postJson(gateway, token, '/v1/videos', { model, prompt: 'a lighthouse at dusk', seconds: '4' }),
  },
];
