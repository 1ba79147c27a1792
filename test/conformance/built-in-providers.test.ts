import t from 'tap';
import { runConformance, type ConformanceSubject } from '../../core/testing/index.js';
import { sampleJpegBase64, startFakeArkUpstream, type FakeArkUpstream } from '../fakes/ark/fake-ark-upstream.js';
import { samplePng, samplePngBase64, startFakeDashScopeUpstream } from '../fakes/dashscope/fake-dashscope-upstream.js';
import { startFakeGxUpstream, tinyPngBase64 } from '../fakes/gx/fake-gx-upstream.js';
import { pcmTone, startFakeOpenAiUpstream, wavFile } from '../fakes/openai/fake-openai-upstream.js';
import { startFakeVeoUpstream } from '../fakes/veo/fake-veo-upstream.js';

// Every built-in provider against its vendor's fake upstream (test/fakes/), through the same
// suite a third-party author runs (core/testing/conformance/).

const key = 'conformance-key';
const chat = (model: string, fields: Record<string, unknown> = {}) => ({ model, messages: [{ role: 'user', content: 'Say hello.' }], ...fields });
const builtIn = (family: string) => new URL(`../../providers/${family}/index.ts`, import.meta.url);
const wav = wavFile(pcmTone(1));
/** A file of a multipart image request, as the images route hands it on. */
const pngUpload = (field: string) => ({ field, filename: 'photo.png', mimeType: 'image/png', data: samplePng });
const transcription = { model: 'whisper-1', response_format: 'json', file: { filename: 'clip.wav', mimeType: 'audio/wav', data: wav, durationSeconds: 1 } };

/** A `video.submit` case on `model`, and a case for each task query that asks about its task. */
const taskCases = (model: string, upstreamModel: string, request: Record<string, unknown>, queries: Array<'video.status' | 'video.content' | 'video.moderation'>) => ({
  'video.submit': { model, upstreamModel, request: { model, ...request } },
  ...Object.fromEntries(queries.map((query) => [query, { model, upstreamModel }])),
});

type Subject = Omit<ConformanceSubject, 'upstream' | 'apiKey'>;
type Upstream = ConformanceSubject['upstream'];

/** The asset library's starting state: what the query cases ask about (a query cannot ask about what the suite's own create makes). */
function seedAssetLibrary(fake: FakeArkUpstream) {
  const groupId = (name: string) => String((fake.assets.act('CreateAssetGroup', { Name: name }, {}, fake.url) as { result: { Id: string } }).result.Id);
  const assetId = (group: string) => String((fake.assets.act('CreateAsset', { GroupId: group, URL: 'https://cdn.example.com/fox.png', AssetType: 'Image' }, {}, fake.url) as { result: { Id: string } }).result.Id);
  const kept = groupId('kept');
  const session = String((fake.assets.act('CreateVisualValidateSession', {}, {}, fake.url) as { result: { BytedToken: string } }).result.BytedToken);
  fake.passValidation(session);
  return { kept, doomed: groupId('doomed'), asset: assetId(kept), doomedAsset: assetId(kept), session };
}

const suites: Array<{ family: string; start: () => Promise<Upstream>; subject: Subject | ((upstream: any) => Subject) }> = [
  {
    family: 'gp',
    start: () => startFakeOpenAiUpstream({ apiKey: key }),
    subject: {
      plugin: builtIn('gp'),
      invalidOptions: [{ path_prefix: 'v1' }, { region: 'eu' }],
      cases: {
        chat: [{ model: 'gp-5.4', request: chat('gp-5.4') }, { model: 'gp-5.4', request: chat('gp-5.4', { stream: true, stream_options: { include_usage: true } }) }],
        responses: [{ model: 'gp-5.4', request: { model: 'gp-5.4', input: 'Say hello.' } }, { model: 'gp-5.4', request: { model: 'gp-5.4', input: 'Say hello.', stream: true } }],
      },
    },
  },
  {
    family: 'gx',
    start: () => startFakeGxUpstream({ apiKey: key }),
    subject: {
      plugin: builtIn('gx'),
      invalidOptions: [{ region: 'eu' }],
      cases: {
        chat: [{ model: 'gx-2.5-pro', request: chat('gx-2.5-pro') }, { model: 'gx-2.5-pro', request: chat('gx-2.5-pro', { stream: true }) }],
        'native.generate': [
          { model: 'gx-2.5-pro', request: { contents: [{ role: 'user', parts: [{ text: 'Say hello.' }] }] } },
          { model: 'gx-2.5-pro', request: { contents: [{ role: 'user', parts: [{ text: 'Say hello.' }] }] }, stream: true },
        ],
        'native.embed': { model: 'embed-latest', request: { content: { parts: [{ text: 'hello' }] } } },
        'native.batchEmbed': { model: 'embed-latest', request: { requests: [{ model: 'models/embed-latest', content: { parts: [{ text: 'hello' }] } }] } },
        'images.generate': { model: 'gx-2.5-flash-image', request: { model: 'gx-2.5-flash-image', prompt: 'a cat' } },
        'images.edit': { model: 'gx-2.5-flash-image', request: { model: 'gx-2.5-flash-image', prompt: 'add a party hat', image: `data:image/png;base64,${tinyPngBase64}` } },
      },
    },
  },
  {
    family: 'gi',
    start: () => startFakeOpenAiUpstream({ apiKey: key }),
    subject: {
      plugin: builtIn('gi'),
      invalidOptions: [{ path_prefix: 'v1' }, { region: 'eu' }],
      cases: {
        'images.generate': { model: 'gi-2', upstreamModel: 'gpt-image-2', request: { model: 'gi-2', prompt: 'a lighthouse at dusk' } },
        'images.edit': [
          { model: 'gi-2', upstreamModel: 'gpt-image-2', request: { model: 'gi-2', prompt: 'add a party hat', image: `data:image/png;base64,${samplePngBase64}` } },
          { model: 'gi-2', upstreamModel: 'gpt-image-2', request: { model: 'gi-2', prompt: 'add a party hat', uploads: [pngUpload('image[]')] }, label: 'multipart' },
        ],
      },
    },
  },
  {
    family: 'sr',
    start: () => startFakeOpenAiUpstream({ apiKey: key }),
    subject: {
      plugin: builtIn('sr'),
      invalidOptions: [{ path_prefix: 'v1' }, { region: 'eu' }],
      cases: taskCases('sr-2', 'sora-2', { prompt: 'a fox in snow', seconds: 4, size: '1280x720' }, ['video.status', 'video.content']),
    },
  },
  {
    family: 'dsr',
    start: () => startFakeArkUpstream({ apiKey: key }),
    subject: {
      plugin: builtIn('dsr'),
      invalidOptions: [{ path_prefix: 'api/v3' }, { region: 'eu' }],
      cases: {
        'images.generate': { model: 'dsr-4-0-250828', upstreamModel: 'doubao-seedream-4-0-250828', request: { model: 'dsr-4-0-250828', prompt: 'a lighthouse at dusk' } },
        'images.edit': { model: 'dsr-4-0-250828', upstreamModel: 'doubao-seedream-4-0-250828', request: { model: 'dsr-4-0-250828', prompt: 'add a hat', image: `data:image/jpeg;base64,${sampleJpegBase64}` } },
      },
    },
  },
  {
    family: 'qi',
    start: () => startFakeDashScopeUpstream({ apiKey: key }),
    subject: {
      plugin: builtIn('qi'),
      invalidOptions: [{ fetch_input_urls: 'yes' }, { region: 'eu' }],
      cases: {
        'images.generate': { model: 'qi-plus', upstreamModel: 'qwen-image-plus', request: { model: 'qi-plus', prompt: 'a lighthouse at dusk' } },
        'images.edit': [
          { model: 'qi-edit-plus', upstreamModel: 'qwen-image-edit-plus', request: { model: 'qi-edit-plus', prompt: 'swap the skies', image: [`data:image/png;base64,${samplePngBase64}`] } },
          { model: 'qi-edit-plus', upstreamModel: 'qwen-image-edit-plus', request: { model: 'qi-edit-plus', prompt: 'swap the skies', uploads: [pngUpload('image')] }, label: 'multipart' },
        ],
      },
    },
  },
  {
    family: 'dsx',
    start: () => startFakeArkUpstream({ apiKey: key }),
    subject: {
      plugin: builtIn('dsx'),
      invalidOptions: [{ assets: { base_url: 'ark.example.com', access_key_id: 'ak', secret_access_key: 'sk' } }, { region: 'eu' }],
      cases: taskCases('dsx-1-0-pro-250528', 'doubao-seedance-1-0-pro-250528', { prompt: 'a fox --rs 1080p --dur 5' }, ['video.status', 'video.content', 'video.moderation']),
    },
  },
  {
    family: 'dsx (asset library)',
    start: () => startFakeArkUpstream({ apiKey: key }),
    subject: (fake: FakeArkUpstream) => {
      const seeded = seedAssetLibrary(fake);
      const model = { model: 'sdx-2-0', upstreamModel: 'dreamina-seedance-2-0-260128' };
      const tasks = taskCases(model.model, model.upstreamModel, { prompt: 'a fox in snow' }, ['video.status', 'video.content', 'video.moderation']);
      return {
        plugin: builtIn('dsx'),
        options: { assets: { base_url: fake.url, access_key_id: 'ark-test-ak', secret_access_key: 'ark-test-sk' } },
        invalidOptions: [{ assets: { base_url: fake.url, access_key_id: '', secret_access_key: 'sk' } }],
        cases: {
          ...tasks,
          'assets.createGroup': { ...model, request: { name: 'portraits', description: 'people of the campaign' } },
          'assets.deleteGroup': { ...model, request: { group_id: seeded.doomed } },
          'assets.create': { ...model, request: { group_id: seeded.kept, url: 'https://cdn.example.com/fox.png', asset_type: 'image' } },
          'assets.get': { ...model, request: { asset_id: seeded.asset } },
          'assets.delete': { ...model, request: { asset_id: seeded.doomedAsset } },
          'assets.createValidationSession': { ...model, request: { callback_url: 'https://gateway.example.com/v1/visual-validate/result' } },
          'assets.getValidationResult': { ...model, request: { byted_token: seeded.session } },
        },
      };
    },
  },
  {
    family: 'vo',
    start: () => startFakeVeoUpstream({ apiKey: key }),
    subject: {
      plugin: builtIn('vo'),
      invalidOptions: [{ api_version: 'beta' }, { region: 'eu' }],
      cases: taskCases('vo-3.0-fast-generate-001', 'veo-3.0-fast-generate-001', { prompt: 'a fox', durationSeconds: 6 }, ['video.status', 'video.content']),
    },
  },
  {
    family: 'wn-hx (wn)',
    start: () => startFakeDashScopeUpstream({ apiKey: key }),
    subject: {
      plugin: builtIn('wn-hx'),
      invalidOptions: [{ path_prefix: 'api/v1' }, { region: 'eu' }],
      cases: taskCases('wn2.5-t2v-preview', 'wan2.5-t2v-preview', { prompt: 'a kitten running in moonlight', duration: 5 }, ['video.status']),
    },
  },
  {
    family: 'wn-hx (hx)',
    start: () => startFakeDashScopeUpstream({ apiKey: key }),
    subject: {
      plugin: builtIn('wn-hx'),
      invalidOptions: [{ path_prefix: 'api/v1' }, { region: 'eu' }],
      cases: taskCases('hx-1.0-t2v', 'happyhorse-1.0-t2v', { metadata: { input: { prompt: 'a horse at dawn' }, parameters: {} } }, ['video.status']),
    },
  },
  {
    family: 'audio',
    start: () => startFakeOpenAiUpstream({ apiKey: key }),
    subject: {
      plugin: builtIn('audio'),
      invalidOptions: [{ path_prefix: 'v1' }, { region: 'eu' }],
      cases: {
        'audio.speech': { model: 'tts-1', request: { model: 'tts-1', input: 'Say hello.', voice: 'alloy' } },
        'audio.transcribe': { model: 'whisper-1', request: transcription },
        'audio.translate': { model: 'whisper-1', request: transcription },
      },
    },
  },
];

for (const { family, start, subject } of suites) {
  t.test(`the built-in ${family} provider passes the conformance suite against its vendor's fake`, async (t) => {
    const upstream = await start();
    t.teardown(() => upstream.close());
    const report = await runConformance({ abortMilliseconds: 1_000, ...(typeof subject === 'function' ? subject(upstream) : subject), upstream, apiKey: key });
    t.same(report.failures, [], `${report.checks.length} checks, none failed`);
  });
}
