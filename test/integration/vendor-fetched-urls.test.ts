import t, { type Test } from 'tap';
import type { LightMyRequestResponse } from 'fastify';
import { startFakeArkUpstream } from '../fakes/ark/fake-ark-upstream.js';
import { startFakeDashScopeUpstream } from '../fakes/dashscope/fake-dashscope-upstream.js';
import { startFakeOpenAiUpstream } from '../fakes/openai/fake-openai-upstream.js';
import type { FakeServer } from '../../core/testing/index.js';
import type { TestApp } from '../helpers/build-test-app.js';
import { gxChannel, issueToken, postChat, postNative, scenarioGateway, scenarioPricing, startGx, type IssuedToken } from '../helpers/gateway-scenario.js';
import { testEncryptionKey } from '../helpers/test-config.js';

// URLs a client gives that the upstream, not the gateway, downloads: each family's field, at
// a loopback, private, metadata or localhost address, must be refused before the upstream
// is called, with the field named, as the gateway's own media fetches are.

const pricing = {
  ...scenarioPricing,
  'wn2.5-*': { per_second: 0.1 },
  'wn2.7-*': { per_second: 0.2 },
  'hx-*': { per_second: 0.2 },
  'dsx-*': { per_second: 0.1 },
  'sdx-*': { per_second: 0.2 },
  'qi-*': { per_image: 0.04 },
  'gp-*': { input_per_mtok: 2, output_per_mtok: 8 },
};
const dashScopeKey = 'dashscope-upstream-key';
const arkKey = 'ark-video-key';
const openAiKey = 'gp-upstream-key';

interface Family {
  fakes: { dashScope: FakeServer; ark: FakeServer; gx: FakeServer; openAi: FakeServer };
  gateway: TestApp;
  token: IssuedToken;
}

async function gatewayOfEveryFamily(t: Test, media: Record<string, unknown> = {}): Promise<Family> {
  const dashScope = await startFakeDashScopeUpstream({ apiKey: dashScopeKey });
  const ark = await startFakeArkUpstream({ apiKey: arkKey });
  const openAi = await startFakeOpenAiUpstream({ apiKey: openAiKey });
  t.teardown(() => Promise.all([dashScope.close(), ark.close(), openAi.close()]));
  const gx = await startGx(t);
  const gateway = await scenarioGateway(t, {
    pricing,
    security: { encryption_key: testEncryptionKey, media },
    tasks: { min_poll_interval_ms: 0, background_poll_ms: 3_600_000 },
    providers: [
      {
        name: 'dashscope',
        plugin: 'wn',
        base_url: dashScope.url,
        api_key: dashScopeKey,
        models: ['wn2.5-i2v-preview', 'wn2.5-t2v-preview', 'wn2.7-r2v', 'hx-1.0-i2v'],
        model_map: { 'wn2.5-i2v-preview': 'wan2.5-i2v-preview', 'wn2.5-t2v-preview': 'wan2.5-t2v-preview', 'wn2.7-r2v': 'wan2.7-r2v', 'hx-1.0-i2v': 'happyhorse-1.0-i2v' },
        groups: ['default'],
      },
      {
        name: 'qi',
        plugin: 'qi',
        base_url: dashScope.url,
        api_key: dashScopeKey,
        models: ['qi-edit-plus'],
        model_map: { 'qi-edit-plus': 'qwen-image-edit-plus' },
        groups: ['default'],
      },
      {
        name: 'ark',
        plugin: 'dsx',
        base_url: ark.url,
        api_key: arkKey,
        models: ['dsx-*', 'sdx-*'],
        model_map: { 'dsx-1-0-lite-i2v-250428': 'doubao-seedance-1-0-lite-i2v-250428', 'sdx-2-0': 'dreamina-seedance-2-0-260128' },
        groups: ['default'],
      },
      gxChannel('gx-main', gx.url),
      { name: 'gp', plugin: 'gp', base_url: openAi.url, api_key: openAiKey, models: ['gp-nano'], model_map: { 'gp-nano': 'gpt-4.1-nano' }, groups: ['default'] },
    ],
  });
  return { fakes: { dashScope, ark, gx, openAi }, gateway, token: await issueToken(t, gateway) };
}

const json = (gateway: TestApp, token: IssuedToken, url: string, body: unknown): Promise<LightMyRequestResponse> =>
  gateway.app.inject({ method: 'POST', url, headers: { ...token.bearer, 'content-type': 'application/json' }, payload: JSON.stringify(body) });

/** One request per family whose `field` carries `url`, and the fake that would receive it. */
function attempts(url: string) {
  const video = (body: Record<string, unknown>) => (family: Family) => json(family.gateway, family.token, '/v1/video/generations', body);
  return [
    { family: 'wn2.5', fake: 'dashScope', field: 'image', send: video({ model: 'wn2.5-i2v-preview', prompt: 'a fox', image: url }) },
    { family: 'wn2.5', fake: 'dashScope', field: 'audio_url', send: video({ model: 'wn2.5-t2v-preview', prompt: 'a fox', audio_url: url.replace(/^http:/, 'https:') }) },
    {
      family: 'wn2.7',
      fake: 'dashScope',
      field: 'metadata.input.media[0].url',
      send: video({ model: 'wn2.7-r2v', metadata: { input: { prompt: 'Image 1 runs', media: [{ type: 'reference_image', url }] } } }),
    },
    {
      family: 'hx',
      fake: 'dashScope',
      field: 'metadata.input.media[0].url',
      send: video({ model: 'hx-1.0-i2v', metadata: { input: { prompt: 'it runs', media: [{ type: 'first_frame', url }] } } }),
    },
    {
      family: 'dsx',
      fake: 'ark',
      field: 'metadata.content[1].image_url.url',
      send: video({ model: 'dsx-1-0-lite-i2v-250428', metadata: { content: [{ type: 'text', text: 'a fox' }, { type: 'image_url', image_url: { url } }] } }),
    },
    { family: 'sdx-2-0', fake: 'ark', field: 'image', send: video({ model: 'sdx-2-0', prompt: 'a fox', image: url }) },
    {
      family: 'sdx-2-0',
      fake: 'ark',
      field: 'metadata.content[0].video_url.url',
      send: video({ model: 'sdx-2-0', prompt: '@Video1 in snow', metadata: { content: [{ type: 'video_url', video_url: { url } }] } }),
    },
    {
      family: 'sdx-2-0',
      fake: 'ark',
      field: 'metadata.callback_url',
      send: video({ model: 'sdx-2-0', prompt: 'a fox', metadata: { callback_url: url.replace(/^http:/, 'https:') } }),
    },
    {
      family: 'qi-edit-plus',
      fake: 'dashScope',
      // The image routes answer every client mistake as 400 `invalid_request` (spec part 2's table).
      error: { code: 'invalid_request' },
      field: 'input.messages[0].content[0].image',
      send: (family: Family) =>
        json(family.gateway, family.token, '/v1/images/edits', { model: 'qi-edit-plus', input: { messages: [{ role: 'user', content: [{ image: url }, { text: 'make it blue' }] }] } }),
    },
    {
      family: 'native gx',
      fake: 'gx',
      error: { code: 400, status: 'INVALID_ARGUMENT' },
      field: 'contents[0].parts[1].fileData.fileUri',
      send: (family: Family) =>
        postNative(family.gateway, family.token, 'gx-2.5-pro:generateContent', {
          contents: [{ role: 'user', parts: [{ text: 'describe' }, { fileData: { mimeType: 'image/png', fileUri: url } }] }],
        }),
    },
    {
      family: 'gx chat extra_body',
      fake: 'gx',
      field: 'extra_body.gx.contents[0].parts[0].fileData.fileUri',
      send: (family: Family) =>
        postChat(family.gateway, family.token, {
          model: 'gx-2.5-pro',
          messages: [{ role: 'user', content: 'hi' }],
          extra_body: { gx: { contents: [{ role: 'user', parts: [{ fileData: { mimeType: 'image/png', fileUri: url } }] }] } },
        }),
    },
    {
      family: 'gp chat',
      fake: 'openAi',
      field: 'messages[0].content[1].image_url.url',
      send: (family: Family) =>
        postChat(family.gateway, family.token, { model: 'gp-nano', messages: [{ role: 'user', content: [{ type: 'text', text: 'what is it' }, { type: 'image_url', image_url: { url } }] }] }),
    },
    {
      family: 'gp Responses',
      fake: 'openAi',
      field: 'input[0].content[0].image_url',
      send: (family: Family) =>
        json(family.gateway, family.token, '/v1/responses', { model: 'gp-nano', input: [{ role: 'user', content: [{ type: 'input_image', image_url: url }] }] }),
    },
  ];
}

const openAiRefusal = (field: string) => ({ code: 'media_url_not_allowed', param: field });

t.test('a URL the upstream would fetch at a loopback, private, metadata or localhost address is refused with its field, and the upstream is not called', async (t) => {
  const family = await gatewayOfEveryFamily(t);
  const addresses = ['http://127.0.0.1:8080/media', 'http://10.0.0.8/media', 'http://169.254.169.254/latest/meta-data/', 'http://[::1]/media', 'http://localhost:9/media'];
  for (const address of addresses) {
    for (const attempt of attempts(address)) {
      const fake = family.fakes[attempt.fake as keyof Family['fakes']];
      const received = fake.requests.length;
      const response = await attempt.send(family);
      const what = `${attempt.family} ${attempt.field} = ${address}`;
      t.equal(response.statusCode, 400, what);
      const error = response.json().error;
      t.match(error, { ...('error' in attempt ? attempt.error : openAiRefusal(attempt.field)), message: /private, loopback, link-local/ }, what);
      t.ok(String(error.message).startsWith(`${attempt.field}: `), `${what}: the message names the field first`);
      t.strictSame(fake.requests.slice(received).map((request) => request.path), [], `${what}: the upstream was not called`);
    }
  }
});

t.test('security.media.allow_hosts lets an upstream fetch a listed private host, and only that one', async (t) => {
  const family = await gatewayOfEveryFamily(t, { allow_hosts: ['10.0.0.8'] });
  const chat = (url: string) => postChat(family.gateway, family.token, { model: 'gp-nano', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url } }] }] });
  const listed = await chat('http://10.0.0.8/a.png');
  t.equal(listed.statusCode, 200);
  t.match(family.fakes.openAi.requests.at(-1)?.json, { messages: [{ content: [{ image_url: { url: 'http://10.0.0.8/a.png' } }] }] });
  const unlisted = await chat('http://10.0.0.9/a.png');
  t.equal(unlisted.statusCode, 400);
  t.match(unlisted.json().error, { code: 'media_url_not_allowed', param: 'messages[0].content[0].image_url.url' });
});

t.test('with check_vendor_fetched_urls off, URLs for the upstream are forwarded unchecked', async (t) => {
  const family = await gatewayOfEveryFamily(t, { check_vendor_fetched_urls: false });
  const image = await json(family.gateway, family.token, '/v1/video/generations', { model: 'wn2.5-i2v-preview', prompt: 'a fox', image: 'http://10.0.0.8/a.png' });
  t.equal(image.statusCode, 200, image.payload);
  t.match(family.fakes.dashScope.requests.at(-1)?.json, { input: { img_url: 'http://10.0.0.8/a.png' } });
  const native = await postNative(family.gateway, family.token, 'gx-2.5-pro:generateContent', {
    contents: [{ role: 'user', parts: [{ fileData: { mimeType: 'image/png', fileUri: 'http://169.254.169.254/a.png' } }] }],
  });
  t.equal(native.statusCode, 200, native.payload);
  t.match(family.fakes.gx.requests.at(-1)?.json, { contents: [{ parts: [{ fileData: { fileUri: 'http://169.254.169.254/a.png' } }] }] });
});
