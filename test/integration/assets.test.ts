import t, { type Test } from 'tap';
import { startFakeArkUpstream, type FakeArkUpstream } from '../fakes/ark/fake-ark-upstream.js';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { issueToken, scenarioGateway, scenarioPricing, storedToken, type IssuedToken } from '../helpers/gateway-scenario.js';

const pricing = { ...scenarioPricing, 'sdx-*': { per_second: 0.2 } };
const upstreamKey = 'ark-video-key';
const keys = { accessKeyId: 'gateway-ak', secretAccessKey: 'gateway-sk' };

function dsxChannel(fake: FakeArkUpstream, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'ark',
    plugin: 'dsx',
    base_url: fake.url,
    api_key: upstreamKey,
    models: ['sdx-*'],
    groups: ['default'],
    options: { assets: { base_url: fake.url, access_key_id: keys.accessKeyId, secret_access_key: keys.secretAccessKey } },
    ...fields,
  };
}

async function assetGateway(t: Test, channel: (fake: FakeArkUpstream) => Record<string, unknown> = (fake) => dsxChannel(fake)) {
  const fake = await startFakeArkUpstream({ apiKey: upstreamKey, ...keys });
  t.teardown(() => fake.close());
  const gateway = await scenarioGateway(t, { pricing, providers: [channel(fake)], tasks: { min_poll_interval_ms: 0, background_poll_ms: 3_600_000 } });
  return { fake, gateway, token: await issueToken(t, gateway) };
}

type Call = (method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) => Promise<{ statusCode: number; json(): any }>;
const as = (gateway: TestApp, token: IssuedToken | undefined): Call => (method, url, body) =>
  gateway.app.inject({
    method,
    url,
    headers: { ...(token?.bearer ?? {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });

const assetCalls = (fake: FakeArkUpstream) => fake.requests.filter((request) => request.path === '/').map((request) => request.query.Action);

/** Creates a group and an asset in it; answers both ids. */
async function groupWithAsset(t: Test, call: Call, assetType = 'video', url = 'https://media.example/clip.mp4') {
  const group = await call('POST', '/v1/asset-groups', { name: 'cast' });
  t.equal(group.statusCode, 200, 'the group is created');
  const asset = await call('POST', '/v1/assets', { group_id: group.json().id, url, asset_type: assetType, name: 'clip' });
  t.equal(asset.statusCode, 200, 'the asset is created');
  return { groupId: group.json().id as string, assetId: asset.json().id as string };
}

t.test('the recommended flow: group, asset, poll until active, video with asset://, poll until completed', async (t) => {
  const { fake, gateway, token } = await assetGateway(t);
  const call = as(gateway, token);
  const before = await storedToken(gateway, token);

  const group = await call('POST', '/v1/asset-groups', { name: 'cast', description: 'the people of the ad' });
  t.equal(group.statusCode, 200);
  t.match(group.json(), { id: /^group-/, object: 'asset_group', name: 'cast', description: 'the people of the ad', group_type: 'aigc', created_at: Number });
  const asset = await call('POST', '/v1/assets', { group_id: group.json().id, url: 'https://media.example/clip.mp4', asset_type: 'video', name: 'clip' });
  t.equal(asset.statusCode, 200);
  const id = asset.json().id as string;
  t.match(asset.json(), { id: /^asset-/, object: 'asset', group_id: group.json().id, asset_type: 'video', status: 'processing', reference: `asset://${id}`, name: 'clip' });
  t.match(fake.assets.assets.get(id), { AssetType: 'Video', URL: 'https://media.example/clip.mp4', GroupId: group.json().id, Name: 'clip' });

  t.match((await call('GET', `/v1/assets/${id}`)).json(), { id, status: 'processing' });
  t.match((await call('GET', `/v1/assets/${id}`)).json(), { id, status: 'active' }, 'active after processing');

  // The client names the asset as an image item; its asset_type makes it a video reference.
  const submitted = await call('POST', '/v1/video/generations', { model: 'sdx-2-0', prompt: '@Video1 in the snow', metadata: { content: [{ type: 'image_url', image_url: { url: `asset://${id}` } }] } });
  t.equal(submitted.statusCode, 200);
  const sent = fake.requests.find((request) => request.path === '/api/v3/contents/generations/tasks')!.json as Record<string, any>;
  t.strictSame(sent.content[1], { type: 'video_url', video_url: { url: `asset://${id}` }, role: 'reference_video' });
  const statuses: string[] = [];
  for (let poll = 0; poll < 3; poll += 1) statuses.push((await call('GET', `/v1/video/generations/${submitted.json().task_id}`)).json().status);
  t.strictSame(statuses, ['queued', 'in_progress', 'completed']);

  const after = await storedToken(gateway, token);
  t.equal(after.used_quota - before.used_quota, 5 * 0.2 * 500_000, 'only the video was charged: asset calls cost nothing');
  t.strictSame(assetCalls(fake), ['CreateAssetGroup', 'CreateAsset', 'GetAsset', 'GetAsset', 'GetAsset']);
  const signed = fake.requests.find((request) => request.path === '/')!;
  t.match(signed.headers.authorization, /^HMAC-SHA256 Credential=gateway-ak\/\d{8}\/cn-beijing\/ark\/request, SignedHeaders=content-type;host;x-content-sha256;x-date, Signature=[0-9a-f]{64}$/);
});

t.test('asset:// references resolve by asset_type; frames must be images; unusable assets are refused', async (t) => {
  const { fake, gateway, token } = await assetGateway(t);
  const call = as(gateway, token);
  const { groupId, assetId: audio } = await groupWithAsset(t, call, 'audio', 'https://media.example/voice.mp3');
  const image = (await call('POST', '/v1/assets', { group_id: groupId, url: 'https://media.example/face.png', asset_type: 'image' })).json().id as string;
  const before = await storedToken(gateway, token);

  const early = await call('POST', '/v1/video/generations', { model: 'sdx-2-0', image: `asset://${image}` });
  t.equal(early.statusCode, 400, 'an asset still processing');
  t.match(early.json(), { error: { param: 'image', message: /still processing/ } });
  await call('GET', `/v1/assets/${image}`);
  await call('GET', `/v1/assets/${audio}`);

  const asFrame = await call('POST', '/v1/video/generations', { model: 'sdx-2-0', prompt: 'x', metadata: { content: [{ type: 'image_url', image_url: { url: `asset://${audio}` }, role: 'first_frame' }] } });
  t.equal(asFrame.statusCode, 400);
  t.match(asFrame.json(), { error: { param: 'metadata.content[0].role', message: /audio clip; a first_frame must be an image asset/ } });
  const flatAudio = await call('POST', '/v1/video/generations', { model: 'sdx-2-0', prompt: 'x', image: `asset://${audio}` });
  t.match(flatAudio.json(), { error: { param: 'image', message: /first frame must be an image/ } });
  t.strictSame(await storedToken(gateway, token), before, 'refusals cost nothing');

  const mixed = await call('POST', '/v1/video/generations', {
    model: 'sdx-2-0',
    prompt: '@Image1 sings @Audio1',
    metadata: { content: [{ type: 'image_url', image_url: { url: `asset://${image}` }, role: 'reference_image' }, { type: 'video_url', video_url: { url: `asset://${audio}` } }] },
  });
  t.equal(mixed.statusCode, 200);
  const sent = fake.requests.filter((request) => request.path === '/api/v3/contents/generations/tasks').at(-1)!.json as Record<string, any>;
  t.strictSame(sent.content.slice(1), [
    { type: 'image_url', image_url: { url: `asset://${image}` }, role: 'reference_image' },
    { type: 'audio_url', audio_url: { url: `asset://${audio}` }, role: 'reference_audio' },
  ], 'never all image_url: each by its asset_type');

  fake.next({ assetOutcome: 'Failed' });
  const broken = (await call('POST', '/v1/assets', { group_id: groupId, url: 'https://media.example/bad.png', asset_type: 'image' })).json().id as string;
  await call('GET', `/v1/assets/${broken}`);
  t.match((await call('GET', `/v1/assets/${broken}`)).json(), { status: 'failed' });
  const failed = await call('POST', '/v1/video/generations', { model: 'sdx-2-0', image: `asset://${broken}` });
  t.match(failed.json(), { error: { param: 'image', message: /failed to process/ } });
});

t.test('a user sees, uses and deletes only their own groups and assets', async (t) => {
  const { fake, gateway, token } = await assetGateway(t);
  const mine = as(gateway, token);
  const other = await issueToken(t, gateway);
  const theirs = as(gateway, other);
  const { groupId, assetId } = await groupWithAsset(t, mine);
  await mine('GET', `/v1/assets/${assetId}`);
  await mine('GET', `/v1/assets/${assetId}`);
  const before = await storedToken(gateway, other);
  const calls = fake.requests.length;

  t.strictSame((await theirs('GET', '/v1/asset-groups')).json(), { object: 'list', data: [] });
  t.strictSame((await theirs('GET', '/v1/assets')).json(), { object: 'list', data: [] });
  for (const [method, url, body] of [
    ['GET', `/v1/assets/${assetId}`],
    ['DELETE', `/v1/assets/${assetId}`],
    ['DELETE', `/v1/asset-groups/${groupId}`],
    ['GET', `/v1/assets?group_id=${groupId}`],
    ['POST', '/v1/assets', { group_id: groupId, url: 'https://media.example/a.png', asset_type: 'image' }],
  ] as const) {
    const response = await theirs(method, url, body);
    t.equal(response.statusCode, 404, `${method} ${url}`);
  }
  const stolen = await theirs('POST', '/v1/video/generations', { model: 'sdx-2-0', prompt: 'x', metadata: { content: [{ type: 'video_url', video_url: { url: `asset://${assetId}` } }] } });
  t.equal(stolen.statusCode, 404);
  t.match(stolen.json(), { error: { code: 'asset_not_found', param: 'metadata.content[0].video_url.url' } });
  const stolenByOpenAiRoute = await theirs('POST', '/v1/videos', { model: 'sdx-2-0', prompt: 'x', image: `asset://${assetId}` });
  t.equal(stolenByOpenAiRoute.statusCode, 404, 'POST /v1/videos checks the references too');
  t.match(stolenByOpenAiRoute.json(), { error: { code: 'asset_not_found', param: 'image' } });
  t.equal(fake.requests.length, calls, 'the upstream was never asked');
  t.strictSame(await storedToken(gateway, other), before, 'nothing reserved');

  t.match((await mine('GET', '/v1/asset-groups')).json(), { object: 'list', data: [{ id: groupId, group_type: 'aigc' }] });
  t.match((await mine('GET', '/v1/assets')).json(), { object: 'list', data: [{ id: assetId, status: 'active' }] });
  t.match((await mine('GET', `/v1/assets?group_id=${groupId}&status=active`)).json(), { data: [{ id: assetId }] });
  t.strictSame((await mine('GET', '/v1/assets?status=failed')).json().data, []);
});

t.test('deleting an asset or a group removes it upstream and from the library', async (t) => {
  const { fake, gateway, token } = await assetGateway(t);
  const call = as(gateway, token);
  const { groupId, assetId } = await groupWithAsset(t, call);
  const second = (await call('POST', '/v1/assets', { group_id: groupId, url: 'https://media.example/b.png', asset_type: 'image' })).json().id as string;
  t.strictSame((await call('DELETE', `/v1/assets/${assetId}`)).json(), { id: assetId, object: 'asset', deleted: true });
  t.notOk(fake.assets.assets.has(assetId), 'deleted upstream');
  t.equal((await call('GET', `/v1/assets/${assetId}`)).statusCode, 404);
  t.strictSame((await call('DELETE', `/v1/asset-groups/${groupId}`)).json(), { id: groupId, object: 'asset_group', deleted: true });
  t.notOk(fake.assets.groups.has(groupId));
  t.equal((await call('GET', `/v1/assets/${second}`)).statusCode, 404, 'its assets went with it');
  t.strictSame((await call('GET', '/v1/asset-groups')).json().data, []);
});

t.test('an asset the upstream lost is forgotten', async (t) => {
  const { fake, gateway, token } = await assetGateway(t);
  const call = as(gateway, token);
  const { assetId } = await groupWithAsset(t, call);
  fake.assets.assets.delete(assetId);
  t.equal((await call('GET', `/v1/assets/${assetId}`)).statusCode, 404);
  t.strictSame((await call('GET', '/v1/assets')).json().data, []);
});

t.test('assets are created only from public https URLs, with strict fields', async (t) => {
  const { fake, gateway, token } = await assetGateway(t);
  const call = as(gateway, token);
  const groupId = (await call('POST', '/v1/asset-groups', { name: 'cast' })).json().id as string;
  const calls = fake.requests.length;
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ url: 'http://media.example/a.png' }, 'url'],
    [{ url: 'data:image/png;base64,iVBORw0KGgo=' }, 'url'],
    [{ url: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB' }, 'url'],
    [{ url: 'https://localhost/a.png' }, 'url'],
    [{ url: 'https://127.0.0.1/a.png' }, 'url'],
    [{ url: 'https://10.1.2.3/a.png' }, 'url'],
    [{ url: 'https://[::1]/a.png' }, 'url'],
    [{ url: 'https://intranet/a.png' }, 'url'],
    [{ asset_type: 'document' }, 'asset_type'],
    [{ group_id: undefined }, 'group_id'],
    [{ colour: 'red' }, 'colour'],
  ];
  for (const [fields, param] of cases) {
    const response = await call('POST', '/v1/assets', { group_id: groupId, url: 'https://media.example/a.png', asset_type: 'image', ...fields });
    t.equal(response.statusCode, 400, JSON.stringify(fields));
    t.match(response.json(), { error: { type: 'invalid_request_error', param } });
  }
  for (const [body, param] of [[{}, 'name'], [{ name: 'x', group_type: 'liveness_face' }, 'group_type'], [{ name: 'x', kind: 'y' }, 'kind']] as const) {
    const response = await call('POST', '/v1/asset-groups', body);
    t.equal(response.statusCode, 400);
    t.match(response.json(), { error: { param } });
  }
  t.equal(fake.requests.length, calls, 'the upstream was never asked');
});

t.test('face validation: a session gives the page; its callback makes a liveness_face group for the session owner', async (t) => {
  const { fake, gateway, token } = await assetGateway(t);
  const mine = as(gateway, token);
  const other = await issueToken(t, gateway);
  const session = await mine('POST', '/v1/visual-validate/session', {});
  t.equal(session.statusCode, 200);
  const { byted_token: bytedToken, h5_link: page } = session.json();
  t.match(session.json(), { object: 'visual_validate.session', group_type: 'liveness_face', status: 'pending', expires_at: Number });
  t.equal(page, fake.assets.sessions.get(bytedToken)!.H5Link, 'the upstream page');
  t.equal(fake.assets.sessions.get(bytedToken)!.CallbackURL, 'http://localhost:80/v1/visual-validate/result', 'the page reports back to this gateway');

  // The callback carries no key of the session owner; the group still goes to the owner.
  const callback = as(gateway, other);
  const early = await callback('POST', '/v1/visual-validate/result', { byted_token: bytedToken });
  t.equal(early.statusCode, 502, 'not passed yet: the upstream says so');
  t.match(early.json(), { error: { code: 'InvalidParameter.ValidationNotPassed' } });
  const group = fake.passValidation(bytedToken);
  const passed = await callback('POST', '/v1/visual-validate/result', { byted_token: bytedToken });
  t.strictSame(passed.json(), { success: true, group_id: group, group_type: 'liveness_face' });
  t.strictSame((await callback('POST', `/v1/visual-validate/result?byted_token=${bytedToken}`)).json(), passed.json(), 'a repeated callback answers the same');
  t.match((await mine('GET', '/v1/asset-groups?group_type=liveness_face')).json(), { data: [{ id: group, group_type: 'liveness_face' }] });
  t.strictSame((await callback('GET', '/v1/asset-groups')).json().data, [], 'not the caller of the callback');
  const face = await mine('POST', '/v1/assets', { group_id: group, url: 'https://media.example/me.png', asset_type: 'image' });
  t.equal(face.statusCode, 200, 'photos of the person go into the liveness group');

  const unknown = await callback('POST', '/v1/visual-validate/result', { byted_token: 'f'.repeat(32) });
  t.equal(unknown.statusCode, 404);
  t.match((await callback('POST', '/v1/visual-validate/result', { byted_token: '../x' })).json(), { error: { param: 'byted_token' } });
});

t.test('face validation: the page is told to call back only an address the gateway is known by, never a forged Host', async (t) => {
  const { fake, gateway, token } = await assetGateway(t);
  const forged = await gateway.app.inject({ method: 'POST', url: '/v1/visual-validate/session', headers: { ...token.bearer, host: 'attacker.example', 'content-type': 'application/json' }, payload: '{}' });
  t.equal(forged.statusCode, 400);
  t.match(forged.json(), { error: { code: 'untrusted_host', message: /attacker\.example.*server\.public_url/ } });
  t.equal(fake.assets.sessions.size, 0, 'no validation page was opened with the forged address');

  const publicApp = await scenarioGateway(t, { pricing, server: { public_url: 'https://gateway.example/base/' }, providers: [dsxChannel(fake)], tasks: { min_poll_interval_ms: 0, background_poll_ms: 3_600_000 } });
  const publicToken = await issueToken(t, publicApp);
  const session = await publicApp.app.inject({ method: 'POST', url: '/v1/visual-validate/session', headers: { ...publicToken.bearer, host: 'attacker.example', 'content-type': 'application/json' }, payload: '{}' });
  t.equal(session.statusCode, 200);
  t.equal(fake.assets.sessions.get(session.json().byted_token)!.CallbackURL, 'https://gateway.example/base/v1/visual-validate/result', 'server.public_url wins over the Host header');
});

t.test('the validation callback needs no API key', async (t) => {
  const { fake, gateway, token } = await assetGateway(t);
  const bytedToken = (await as(gateway, token)('POST', '/v1/visual-validate/session', {})).json().byted_token as string;
  fake.passValidation(bytedToken);
  t.equal((await as(gateway, undefined)('POST', '/v1/visual-validate/result', { byted_token: bytedToken })).statusCode, 200);
});

t.test('asset routes follow the assets.model model: its model limits apply', async (t) => {
  const { gateway } = await assetGateway(t);
  const limited = await issueToken(t, gateway, { model_limits_enabled: true, model_limits: ['gx-2.5-pro'] });
  const response = await as(gateway, limited)('POST', '/v1/asset-groups', { name: 'cast' });
  t.equal(response.statusCode, 403);
  t.match(response.json(), { error: { code: 'model_not_allowed' } });
  t.equal((await as(gateway, undefined)('GET', '/v1/asset-groups')).statusCode, 401, 'an API key is needed');
});

t.test('asset API failures: bad credentials, plan gating, outages', async (t) => {
  const wrong = await assetGateway(t, (fake) => dsxChannel(fake, { options: { assets: { base_url: fake.url, access_key_id: keys.accessKeyId, secret_access_key: 'wrong' } } }));
  const refused = await as(wrong.gateway, wrong.token)('POST', '/v1/asset-groups', { name: 'cast' });
  t.equal(refused.statusCode, 502);
  t.match(refused.json(), { error: { code: 'upstream_auth_failed' } });

  const { fake, gateway, token } = await assetGateway(t);
  fake.next({ volcError: { Code: 'SubscriptionRequired', Message: 'subscribe to the asset library first' } });
  t.match((await as(gateway, token)('POST', '/v1/asset-groups', { name: 'cast' })).json(), { error: { code: 'upstream_auth_failed', message: /SubscriptionRequired/ } });
  fake.next({ error: 503 });
  const down = await as(gateway, token)('POST', '/v1/asset-groups', { name: 'cast' });
  t.equal(down.statusCode, 502);
  t.match(down.json(), { error: { code: 'upstream_error' } });
  t.strictSame((await as(gateway, token)('GET', '/v1/asset-groups')).json().data, [], 'no group was recorded');
});

t.test('a channel without the asset API answers the asset routes with a 501 naming the channel and the option to add', async (t) => {
  const { fake, gateway, token } = await assetGateway(t, (fake) => dsxChannel(fake, { options: {} }));
  const response = await as(gateway, token)('POST', '/v1/asset-groups', { name: 'cast' });
  t.equal(response.statusCode, 501);
  t.match(response.json(), {
    error: { code: 'operation_not_configured', message: /^channel "[^"]+" serves model "sdx-2-0" but is not set up for assets\.createGroup: its config lacks options\.assets \(the asset API's base_url, access_key_id and secret_access_key\)/ },
  });
  t.equal(fake.requests.length, 0);
});

for (const driver of ['sqlite', 'redis'] as const) {
  t.test(`ownership records and their indexes work on the ${driver} store`, async (t) => {
    const fake = await startFakeArkUpstream({ apiKey: upstreamKey, ...keys });
    t.teardown(() => fake.close());
    const gateway = await buildTestApp(t, driver, { pricing, providers: [dsxChannel(fake)] });
    const mine = as(gateway, await issueToken(t, gateway));
    const theirs = as(gateway, await issueToken(t, gateway));
    const { groupId, assetId } = await groupWithAsset(t, mine);
    t.match((await mine('GET', '/v1/asset-groups')).json(), { data: [{ id: groupId }] });
    t.match((await mine('GET', '/v1/assets')).json(), { data: [{ id: assetId }] });
    t.equal((await theirs('GET', `/v1/assets/${assetId}`)).statusCode, 404);
    t.equal((await mine('DELETE', `/v1/asset-groups/${groupId}`)).statusCode, 200);
    t.strictSame((await mine('GET', '/v1/assets')).json().data, []);
  });
}
