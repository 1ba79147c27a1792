import { pcmTone, wavFile } from '../../fakes/openai/fake-openai-upstream.js';
import { tinyPngBase64 } from '../../fakes/gx/fake-gx-upstream.js';

/** The error shapes of DESIGN §8, and Anthropic's (the Messages routes). */
export type Dialect = 'envelope' | 'openai' | 'native' | 'images' | 'anthropic';

/** Ids the routes' paths and bodies refer to, made by the test before fuzzing. */
export interface FuzzEnvironment {
  /** `sk-…` of the API user's unlimited token. */
  apiKey: string;
  /** The management user's login token. */
  loginToken: string;
  /** A token of the management user. */
  tokenId: number;
  /** A video task of the API user (`/v1/video/generations/…`). */
  taskId: string;
  /** The same task as an OpenAI video id (`/v1/videos/…`). */
  videoId: string;
  groupId: string;
  assetId: string;
  /** A port on this machine whose server counts every request: a hostile URL that reaches it got past the media guard. */
  canaryPort: number;
}

/** A multipart form: text fields and at most one file. */
export interface FormTemplate {
  fields: Record<string, string>;
  file?: { field: string; name: string; type: string; bytes: Uint8Array };
}

/** A path into a JSON template. */
export type FieldPath = Array<string | number>;

/** One route as the fuzz drives it: a valid request to mutate. */
export interface FuzzRoute {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The path, with `{param}` placeholders filled from `params`. */
  path: string;
  params?: (environment: FuzzEnvironment) => Record<string, string>;
  query?: (environment: FuzzEnvironment) => Record<string, string>;
  auth: 'api' | 'login' | 'none';
  json?: (environment: FuzzEnvironment) => Record<string, unknown>;
  form?: (environment: FuzzEnvironment) => FormTemplate;
  /** Where the JSON template holds a URL the gateway may fetch or pass on. */
  urlFields?: FieldPath[];
  dialect: Dialect;
}

const pngDataUri = `data:image/png;base64,${tinyPngBase64}`;
const wav = wavFile(pcmTone(0.2));
const png = Buffer.from(tinyPngBase64, 'base64');

const tokenFields = {
  name: 'fuzz',
  remain_quota: 100,
  expired_time: -1,
  unlimited_quota: false,
  model_limits_enabled: false,
  model_limits: [],
  allow_ips: '',
  group: '',
  cross_group_retry: false,
};

const native = (method: string, model: string, json: () => Record<string, unknown>, query?: Record<string, string>): FuzzRoute => ({
  name: `native ${method}`,
  method: 'POST',
  path: '/v1beta/models/{call}',
  params: () => ({ call: `${model}:${method}` }),
  query: query === undefined ? undefined : () => query,
  auth: 'api',
  json,
  urlFields: method.endsWith('GenerateContent') || method === 'generateContent' ? [['contents', 0, 'parts', 1, 'fileData', 'fileUri']] : undefined,
  dialect: 'native',
});

const nativeContents = () => ({
  contents: [{ role: 'user', parts: [{ text: 'hi' }, { fileData: { mimeType: 'image/png', fileUri: 'https://example.com/a.png' } }] }],
  generationConfig: { temperature: 0.5, maxOutputTokens: 16 },
});

const srVideo = () => ({ model: 'sr-2', prompt: 'a cat on a boat', seconds: 4, size: '720x1280', input_reference: pngDataUri });

/** Every route of the gateway, each with a valid request the input classes break. */
export const fuzzRoutes: FuzzRoute[] = [
  { name: 'token list', method: 'GET', path: '/api/token/', query: () => ({ p: '1', size: '20' }), auth: 'login', dialect: 'envelope' },
  { name: 'token search', method: 'GET', path: '/api/token/search', query: () => ({ keyword: 'fuzz', token: 'ab%cd', p: '1', size: '5' }), auth: 'login', dialect: 'envelope' },
  { name: 'token get', method: 'GET', path: '/api/token/{id}', params: (environment) => ({ id: String(environment.tokenId) }), auth: 'login', dialect: 'envelope' },
  { name: 'token create', method: 'POST', path: '/api/token/', auth: 'login', json: () => ({ ...tokenFields }), dialect: 'envelope' },
  { name: 'token update', method: 'PUT', path: '/api/token/', auth: 'login', json: (environment) => ({ id: environment.tokenId, ...tokenFields }), dialect: 'envelope' },
  {
    name: 'token status',
    method: 'PUT',
    path: '/api/token/',
    query: () => ({ status_only: 'true' }),
    auth: 'login',
    json: (environment) => ({ id: environment.tokenId, status: 1 }),
    dialect: 'envelope',
  },
  { name: 'token delete', method: 'DELETE', path: '/api/token/{id}', params: (environment) => ({ id: String(environment.tokenId + 1000) }), auth: 'login', dialect: 'envelope' },
  { name: 'token batch delete', method: 'POST', path: '/api/token/batch', auth: 'login', json: (environment) => ({ ids: [environment.tokenId + 1000] }), dialect: 'envelope' },
  { name: 'token reveal', method: 'POST', path: '/api/token/{id}/key', params: (environment) => ({ id: String(environment.tokenId) }), auth: 'login', dialect: 'envelope' },
  { name: 'token batch reveal', method: 'POST', path: '/api/token/batch/keys', auth: 'login', json: (environment) => ({ ids: [environment.tokenId] }), dialect: 'envelope' },

  {
    name: 'chat gx',
    method: 'POST',
    path: '/v1/chat/completions',
    auth: 'api',
    json: () => ({
      model: 'gx-2.5-pro',
      max_tokens: 16,
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'image_url', image_url: { url: pngDataUri } }] },
      ],
    }),
    urlFields: [['messages', 1, 'content', 1, 'image_url', 'url']],
    dialect: 'openai',
  },
  {
    name: 'chat gp stream',
    method: 'POST',
    path: '/v1/chat/completions',
    auth: 'api',
    json: () => ({ model: 'gp-5.4', stream: true, messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } }] }] }),
    urlFields: [['messages', 0, 'content', 0, 'image_url', 'url']],
    dialect: 'openai',
  },
  {
    name: 'messages',
    method: 'POST',
    path: '/v1/messages',
    auth: 'api',
    json: () => ({
      // gp: it hands image URLs to its upstream, which fetches them (gx would fetch example.com here, with no network).
      model: 'gp-5.4',
      max_tokens: 16,
      system: [{ type: 'text', text: 'be brief', cache_control: { type: 'ephemeral' } }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { q: 'x' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'found' }] },
      ],
      tools: [{ name: 'lookup', input_schema: { type: 'object' } }],
    }),
    urlFields: [['messages', 0, 'content', 1, 'source', 'url']],
    dialect: 'anthropic',
  },
  {
    name: 'messages count_tokens',
    method: 'POST',
    path: '/v1/messages/count_tokens',
    auth: 'api',
    json: () => ({ model: 'gx-2.5-pro', messages: [{ role: 'user', content: 'hi' }] }),
    dialect: 'anthropic',
  },
  {
    name: 'responses',
    method: 'POST',
    path: '/v1/responses',
    auth: 'api',
    json: () => ({
      model: 'gp-5.4',
      max_output_tokens: 16,
      input: [{ role: 'user', content: [{ type: 'input_text', text: 'hi' }, { type: 'input_image', image_url: 'https://example.com/a.png' }, { type: 'input_file', file_url: 'https://example.com/a.pdf' }] }],
      tools: [{ type: 'function', name: 'lookup', parameters: { type: 'object' } }],
      metadata: { purpose: 'fuzz' },
    }),
    urlFields: [
      ['input', 0, 'content', 1, 'image_url'],
      ['input', 0, 'content', 2, 'file_url'],
    ],
    dialect: 'openai',
  },
  native('generateContent', 'gx-2.5-pro', nativeContents),
  native('streamGenerateContent', 'gx-2.5-pro', nativeContents, { alt: 'sse' }),
  native('embedContent', 'embed-latest', () => ({ content: { parts: [{ text: 'hi' }] } })),
  native('batchEmbedContents', 'embed-latest', () => ({ requests: [{ model: 'models/embed-latest', content: { parts: [{ text: 'hi' }] } }] })),
  {
    name: 'embeddings',
    method: 'POST',
    path: '/v1/embeddings',
    auth: 'api',
    json: () => ({ model: 'embed-latest', input: ['hi', 'there'], encoding_format: 'base64', dimensions: 8 }),
    dialect: 'openai',
  },
  { name: 'models', method: 'GET', path: '/v1/models', auth: 'api', dialect: 'openai' },
  { name: 'model', method: 'GET', path: '/v1/models/{model}', params: () => ({ model: 'gx-2.5-pro' }), auth: 'api', dialect: 'openai' },
  { name: 'native models', method: 'GET', path: '/v1beta/models', auth: 'api', dialect: 'native' },
  { name: 'native model', method: 'GET', path: '/v1beta/models/{model}', params: () => ({ model: 'gx-2.5-pro' }), auth: 'api', dialect: 'native' },

  {
    name: 'speech',
    method: 'POST',
    path: '/v1/audio/speech',
    auth: 'api',
    json: () => ({ model: 'tts-1', input: 'hello there', voice: 'alloy', response_format: 'mp3', speed: 1 }),
    dialect: 'openai',
  },
  {
    name: 'transcriptions',
    method: 'POST',
    path: '/v1/audio/transcriptions',
    auth: 'api',
    form: () => ({ fields: { model: 'stt-1', response_format: 'json', language: 'en' }, file: { field: 'file', name: 'clip.wav', type: 'audio/wav', bytes: wav } }),
    dialect: 'openai',
  },
  {
    name: 'translations',
    method: 'POST',
    path: '/v1/audio/translations',
    auth: 'api',
    form: () => ({ fields: { model: 'stt-1', response_format: 'text' }, file: { field: 'file', name: 'clip.wav', type: 'audio/wav', bytes: wav } }),
    dialect: 'openai',
  },

  {
    name: 'images generations',
    method: 'POST',
    path: '/v1/images/generations',
    auth: 'api',
    json: () => ({ model: 'gi-2', prompt: 'a lighthouse', n: 1, size: '1024x1024', quality: 'low', image: pngDataUri }),
    urlFields: [['image']],
    dialect: 'images',
  },
  {
    name: 'images generations qi',
    method: 'POST',
    path: '/v1/images/generations',
    auth: 'api',
    json: () => ({ model: 'qi-plus', prompt: 'a lighthouse at dusk', size: '1664x928', n: 1, watermark: true }),
    dialect: 'images',
  },
  {
    name: 'images generations dsr',
    method: 'POST',
    path: '/v1/images/generations',
    auth: 'api',
    json: () => ({ model: 'dsr-4-0-250828', prompt: 'a kite', size: '2K', image: [pngDataUri], response_format: 'url', watermark: false }),
    urlFields: [['image', 0]],
    dialect: 'images',
  },
  {
    name: 'images generations gx',
    method: 'POST',
    path: '/v1/images/generations',
    auth: 'api',
    json: () => ({ model: 'gx-2.5-flash-image', prompt: 'a red circle', size: '1024x1024', quality: 'standard', n: 1 }),
    dialect: 'images',
  },
  {
    name: 'images edits',
    method: 'POST',
    path: '/v1/images/edits',
    auth: 'api',
    json: () => ({ model: 'gi-2', prompt: 'add a boat', image: [pngDataUri], mask: pngDataUri }),
    urlFields: [['image', 0], ['mask']],
    dialect: 'images',
  },
  {
    name: 'images edits form',
    method: 'POST',
    path: '/v1/images/edits',
    auth: 'api',
    form: () => ({ fields: { model: 'gi-2', prompt: 'add a boat' }, file: { field: 'image[]', name: 'in.png', type: 'image/png', bytes: png } }),
    dialect: 'images',
  },

  { name: 'video submit', method: 'POST', path: '/v1/video/generations', auth: 'api', json: srVideo, urlFields: [['input_reference']], dialect: 'openai' },
  {
    name: 'video submit wn2.5',
    method: 'POST',
    path: '/v1/video/generations',
    auth: 'api',
    json: () => ({ model: 'wn2.5-i2v-preview', prompt: 'a fox runs', image: pngDataUri, duration: 5, resolution: '720p', seed: 7 }),
    urlFields: [['image']],
    dialect: 'openai',
  },
  {
    name: 'video submit wn2.7 references',
    method: 'POST',
    path: '/v1/video/generations',
    auth: 'api',
    json: () => ({
      model: 'wn2.7-r2v',
      metadata: {
        input: { prompt: 'image 1 dances', media: [{ type: 'reference_image', url: 'https://media.example/a.png' }, { type: 'reference_video', url: 'https://media.example/b.mp4' }] },
        parameters: { duration: 5, resolution: '720P' },
      },
    }),
    urlFields: [['metadata', 'input', 'media', 0, 'url']],
    dialect: 'openai',
  },
  {
    name: 'video submit hx references',
    method: 'POST',
    path: '/v1/video/generations',
    auth: 'api',
    json: () => ({ model: 'hx-1.0-r2v', metadata: { input: { prompt: '[Image 1] waves', media: [{ type: 'reference_image', url: 'https://media.example/a.png' }] }, parameters: { duration: 5 } } }),
    urlFields: [['metadata', 'input', 'media', 0, 'url']],
    dialect: 'openai',
  },
  {
    name: 'video submit vo',
    method: 'POST',
    path: '/v1/video/generations',
    auth: 'api',
    json: () => ({ model: 'vo-3.1-fast-generate-preview', prompt: 'a fox in snow', image: pngDataUri, durationSeconds: 6, resolution: '720p', aspectRatio: '16:9' }),
    urlFields: [['image']],
    dialect: 'openai',
  },
  {
    name: 'video submit sdx',
    method: 'POST',
    path: '/v1/video/generations',
    auth: 'api',
    json: (environment) => ({ model: 'sdx-2-0', prompt: '@Image1 walks', metadata: { content: [{ type: 'image_url', image_url: { url: `asset://${environment.assetId}` } }] } }),
    urlFields: [['metadata', 'content', 0, 'image_url', 'url']],
    dialect: 'openai',
  },
  {
    name: 'video submit form',
    method: 'POST',
    path: '/v1/video/generations',
    auth: 'api',
    form: () => ({ fields: { model: 'sr-2', prompt: 'a cat', seconds: '4' }, file: { field: 'input_reference', name: 'first.png', type: 'image/png', bytes: png } }),
    dialect: 'openai',
  },
  { name: 'video task', method: 'GET', path: '/v1/video/generations/{id}', params: (environment) => ({ id: environment.taskId }), auth: 'api', dialect: 'openai' },
  { name: 'video task content', method: 'GET', path: '/v1/video/generations/{id}/content', params: (environment) => ({ id: environment.taskId }), auth: 'api', dialect: 'openai' },
  { name: 'video download', method: 'GET', path: '/v1/video/generations/download', query: (environment) => ({ id: environment.taskId }), auth: 'api', dialect: 'openai' },
  {
    name: 'video moderation',
    method: 'GET',
    path: '/v1/video/generations/moderation-result/{id}',
    params: (environment) => ({ id: environment.taskId }),
    auth: 'api',
    dialect: 'openai',
  },
  { name: 'videos create', method: 'POST', path: '/v1/videos', auth: 'api', json: srVideo, urlFields: [['input_reference']], dialect: 'openai' },
  { name: 'videos get', method: 'GET', path: '/v1/videos/{id}', params: (environment) => ({ id: environment.videoId }), auth: 'api', dialect: 'openai' },
  { name: 'videos content', method: 'GET', path: '/v1/videos/{id}/content', params: (environment) => ({ id: environment.videoId }), auth: 'api', dialect: 'openai' },
  {
    name: 'videos remix',
    method: 'POST',
    path: '/v1/videos/{id}/remix',
    params: (environment) => ({ id: environment.videoId }),
    auth: 'api',
    json: () => ({ prompt: 'now at night' }),
    dialect: 'openai',
  },

  { name: 'asset group create', method: 'POST', path: '/v1/asset-groups', auth: 'api', json: () => ({ name: 'cast', description: 'the people' }), dialect: 'openai' },
  { name: 'asset groups', method: 'GET', path: '/v1/asset-groups', query: () => ({ limit: '10' }), auth: 'api', dialect: 'openai' },
  { name: 'asset group delete', method: 'DELETE', path: '/v1/asset-groups/{id}', params: () => ({ id: 'group-does-not-exist' }), auth: 'api', dialect: 'openai' },
  {
    name: 'asset create',
    method: 'POST',
    path: '/v1/assets',
    auth: 'api',
    json: (environment) => ({ group_id: environment.groupId, url: 'https://media.example/clip.mp4', asset_type: 'video', name: 'clip' }),
    urlFields: [['url']],
    dialect: 'openai',
  },
  { name: 'assets', method: 'GET', path: '/v1/assets', query: (environment) => ({ group_id: environment.groupId }), auth: 'api', dialect: 'openai' },
  { name: 'asset get', method: 'GET', path: '/v1/assets/{id}', params: (environment) => ({ id: environment.assetId }), auth: 'api', dialect: 'openai' },
  { name: 'asset delete', method: 'DELETE', path: '/v1/assets/{id}', params: () => ({ id: 'asset-does-not-exist' }), auth: 'api', dialect: 'openai' },
  { name: 'validation session', method: 'POST', path: '/v1/visual-validate/session', auth: 'api', json: () => ({}), dialect: 'openai' },
  { name: 'validation result', method: 'POST', path: '/v1/visual-validate/result', auth: 'none', json: () => ({ byted_token: 'no-such-session' }), dialect: 'openai' },
];
