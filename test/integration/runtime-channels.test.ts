import { writeFileSync } from 'node:fs';
import t, { type Test } from 'tap';
import { loadConfigFile } from '../../core/config/load-config.js';
import { UserService } from '../../core/users/user-service.js';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { writeGatewayConfig } from '../helpers/cli-gateway-process.js';
import { testEncryptionKey } from '../helpers/test-config.js';
import { chatBody, gxChannel, gxUpstreamKey, issueToken, postChat, scenarioGateway, scenarioPricing, sseData, startGx, streamedText } from '../helpers/gateway-scenario.js';

// Channels created, changed, drained and deleted through the channel API, beside the config
// file's, against real fake gx upstreams.

const runtimeKey = 'gx-runtime-key-4b7f2e91c0d8';

interface Scene {
  gateway: TestApp;
  upstream: Awaited<ReturnType<typeof startGx>>;
  admin: string;
}

async function runtimeScene(t: Test, overrides: Record<string, unknown> = {}): Promise<Scene> {
  const upstream = await startGx(t);
  const gateway = await scenarioGateway(t, { providers: [gxChannel('gx-file', upstream.url, { models: ['gx-2.5-pro'] })], ...overrides });
  const admin = (await gateway.app.gateway.resolve(UserService).create('root', 'admin')).loginToken;
  return { gateway, upstream, admin };
}

const call = (scene: Scene, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, loginToken = scene.admin) =>
  scene.gateway.asUser(loginToken, { method, url, ...(payload === undefined ? {} : { payload: payload as never }) });

/** A runtime channel on the scene's upstream, serving gx-3-runtime; `fields` replace the defaults. */
const runtimeChannel = (scene: Scene, fields: Record<string, unknown> = {}) => ({ name: 'gx-runtime', plugin: 'gx', base_url: scene.upstream.url, api_key: runtimeKey, models: ['gx-3-runtime'], ...fields });

const listed = async (scene: Scene) => (await call(scene, 'GET', '/api/channel/')).json().data.items as Array<Record<string, any>>;

t.test('a channel created through the API is answered and listed from the store, enabled, with its key masked', async (t) => {
  const scene = await runtimeScene(t);
  const created = await call(scene, 'POST', '/api/channel/', runtimeChannel(scene, { groups: ['default', 'vip'], priority: 3 }));
  t.equal(created.statusCode, 200);
  t.match(created.json(), {
    success: true,
    data: { name: 'gx-runtime', source: 'store', enabled: true, plugin: 'gx', models: ['gx-3-runtime'], groups: ['default', 'vip'], priority: 3, weight: 1, circuit: 'closed' },
  });
  const channel = created.json().data;
  t.equal(channel.config.api_key, '**********', 'the key is masked: a key shorter than 32 characters wholly');
  t.same(channel.config.options, {}, "the plugin's options, with its defaults");
  t.type(channel.created_time, 'number');

  const items = await listed(scene);
  t.same(
    items.map((item) => [item.name, item.source, item.enabled]),
    [
      ['gx-file', 'file', true],
      ['gx-runtime', 'store', true],
    ],
    'the file channel first, then the stored one',
  );
  const answers = [created.payload, (await call(scene, 'GET', '/api/channel/')).payload];
  t.notOk(answers.some((payload) => payload.includes(runtimeKey)), 'no answer holds the key');
  t.notOk(scene.gateway.logLines.some((line) => line.includes(runtimeKey)), 'nor any log line');

  const longKey = 'gx-runtime-long-key-0123456789abcdef-4242';
  const long = await call(scene, 'POST', '/api/channel/', runtimeChannel(scene, { name: 'gx-long-key', api_key: undefined, api_keys: [longKey, 'short-key-2'], options: { api_version: 'v1beta' } }));
  t.same(long.json().data.config.api_keys, ['gx-r**********4242', '**********'], 'a long key keeps its first and last 4 characters, enough to tell keys apart');
  t.same(long.json().data.config.options, { api_version: 'v1beta' }, 'options not named like a credential are shown');
});

t.test('every change through the channel API is on the audit trail, with who made it, before and after, keys masked', async (t) => {
  const scene = await runtimeScene(t);
  t.equal((await call(scene, 'POST', '/api/channel/', runtimeChannel(scene))).statusCode, 200);
  t.equal((await call(scene, 'PUT', '/api/channel/', { name: 'gx-runtime', priority: 4 })).statusCode, 200);
  t.equal((await call(scene, 'PUT', '/api/channel/', { name: 'gx-file', enabled: false })).statusCode, 200);
  t.equal((await call(scene, 'PUT', '/api/channel/', { name: 'gx-file', enabled: true })).statusCode, 200);
  t.equal((await call(scene, 'DELETE', '/api/channel/gx-runtime')).statusCode, 200);
  t.equal((await call(scene, 'PUT', '/api/channel/', { name: 'gx-file', enabled: true })).statusCode, 200, 'a change that changes nothing');
  t.equal((await call(scene, 'POST', '/api/channel/', runtimeChannel(scene, { name: 'gx-file' }))).statusCode, 409, 'nor a refused one');

  const audit = await call(scene, 'GET', '/api/audit');
  t.equal(audit.statusCode, 200);
  const records = (audit.json().data.items as Array<Record<string, any>>).filter((record) => record.action.startsWith('channel.'));
  t.same(
    records.map((record) => [record.action, record.target_id]),
    [
      ['channel.delete', 'gx-runtime'],
      ['channel.enable', 'gx-file'],
      ['channel.disable', 'gx-file'],
      ['channel.update', 'gx-runtime'],
      ['channel.create', 'gx-runtime'],
    ],
    'one record per change, newest first',
  );
  t.match(records[4], { username: 'root', ip: '127.0.0.1', source: 'api', before: null, after: { source: 'store', enabled: true, entry: { name: 'gx-runtime', models: ['gx-3-runtime'], api_key: '**********' } } });
  t.match(records[3], { before: { entry: { priority: 0 } }, after: { entry: { priority: 4 } } }, 'the update before and after');
  t.match(records[2], { before: { source: 'file', enabled: true }, after: { source: 'file', enabled: false } });
  t.match(records[0], { before: { entry: { name: 'gx-runtime' } }, after: null });
  t.notOk(audit.payload.includes(runtimeKey), 'no key on the trail');
});

t.test('bad input to the channel API is a 400 naming the field and what to change', async (t) => {
  const scene = await runtimeScene(t);
  const cases: Array<[string, 'POST' | 'PUT', unknown, RegExp]> = [
    ['no body fields', 'POST', {}, /^name: required/],
    ['not an object', 'POST', [1], /expected a JSON object/],
    ['a name with a space', 'POST', runtimeChannel(scene, { name: 'gx runtime' }), /^name: expected letters, digits/],
    ['a name of 65 characters', 'POST', runtimeChannel(scene, { name: 'g'.repeat(65) }), /^name: at most 64 characters/],
    ['no models', 'POST', runtimeChannel(scene, { models: undefined }), /^models: required/],
    ['an empty model list', 'POST', runtimeChannel(scene, { models: [] }), /^models: expected at least one model/],
    ['a base_url that is no URL', 'POST', runtimeChannel(scene, { base_url: 'gx.example' }), /^base_url: expected a URL/],
    ['an unknown field', 'POST', runtimeChannel(scene, { colour: 'blue' }), /^unknown field "colour" in the body/],
    ['both a key and keys', 'POST', runtimeChannel(scene, { api_keys: ['another-key-000'] }), /^api_keys: set api_key or api_keys, not both/],
    ['a group the config does not define', 'POST', runtimeChannel(scene, { groups: ['default', 'gold'] }), /^groups\[1\]: unknown group "gold"; the groups are default, vip/],
    ['a plugin by path', 'POST', runtimeChannel(scene, { plugin: './my-plugin.js' }), /^plugin: expected a built-in family \(.*gx.*\); a channel of another plugin is added in the config file/],
    ['an option the plugin does not take', 'POST', runtimeChannel(scene, { options: { region: 'eu' } }), /^options\.region: unknown key/],
    ['an option value the plugin refuses', 'POST', runtimeChannel(scene, { options: { api_version: 'beta one' } }), /^options\.api_version: expected a version such as v1beta/],
    ['enabled that is not a boolean', 'POST', runtimeChannel(scene, { enabled: 'no' }), /^enabled: expected true \(serving\) or false/],
    ['a change without a name', 'PUT', { priority: 1 }, /^name: required/],
    ['a change to an unknown field', 'PUT', { name: 'gx-file', colour: 'blue' }, /^unknown field "colour" in the body/],
  ];
  for (const [what, method, payload, message] of cases) {
    const answer = await call(scene, method, '/api/channel/', payload);
    t.equal(answer.statusCode, 400, `${what}: 400`);
    t.match(answer.json(), { success: false, message }, what);
  }

  t.equal((await call(scene, 'POST', '/api/channel/', runtimeChannel(scene))).statusCode, 200, 'a good one is created');
  const badChange = await call(scene, 'PUT', '/api/channel/', { name: 'gx-runtime', priority: 'high' });
  t.equal(badChange.statusCode, 400);
  t.match(badChange.json().message, /^priority: expected an integer/, 'a change is checked as the whole entry is');
  const unknown = await call(scene, 'PUT', '/api/channel/', { name: 'gx-nowhere', enabled: false });
  t.equal(unknown.statusCode, 404);
  t.match(unknown.json().message, /^name: no channel is named "gx-nowhere"; the channels are gx-file, gx-runtime/);
  t.equal((await call(scene, 'DELETE', '/api/channel/gx-nowhere')).statusCode, 404, 'a deletion of an unknown channel too');
  t.same(
    (await listed(scene)).map((item) => item.name),
    ['gx-file', 'gx-runtime'],
    'nothing was created by the refused requests',
  );
});

t.test("a name a channel of the config file has is a 409, and so is a second stored channel of one name", async (t) => {
  const scene = await runtimeScene(t);
  const clash = await call(scene, 'POST', '/api/channel/', runtimeChannel(scene, { name: 'gx-file' }));
  t.equal(clash.statusCode, 409);
  t.match(clash.json(), { success: false, message: /^name: "gx-file" is a channel of the config file, which is its source of truth; choose another name/ });
  t.equal((await call(scene, 'POST', '/api/channel/', runtimeChannel(scene))).statusCode, 200);
  const again = await call(scene, 'POST', '/api/channel/', runtimeChannel(scene));
  t.equal(again.statusCode, 409);
  t.match(again.json().message, /^name: a channel named "gx-runtime" exists; change it with PUT \/api\/channel\//);
});

t.test('a channel of the config file is read-only through the API, but for enabling and disabling it', async (t) => {
  const scene = await runtimeScene(t);
  const changed = await call(scene, 'PUT', '/api/channel/', { name: 'gx-file', models: ['gx-3-pro'] });
  t.equal(changed.statusCode, 409);
  t.match(changed.json().message, /^models: the channel "gx-file" comes from the config file, which is its source of truth: change it there and reload/);
  const deleted = await call(scene, 'DELETE', '/api/channel/gx-file');
  t.equal(deleted.statusCode, 409);
  t.match(deleted.json().message, /the channel "gx-file" comes from the config file, which is its source of truth: remove it there and reload, or disable it here/);

  const disabled = await call(scene, 'PUT', '/api/channel/', { name: 'gx-file', enabled: false });
  t.equal(disabled.statusCode, 200);
  t.match(disabled.json().data, { name: 'gx-file', source: 'file', enabled: false });
  t.match(await listed(scene), [{ name: 'gx-file', enabled: false }], 'listed as disabled');
  t.equal((await call(scene, 'PUT', '/api/channel/', { name: 'gx-file', enabled: true })).json().data.enabled, true, 'and enabled again');
});

t.test('the channel API is for admins only', async (t) => {
  const scene = await runtimeScene(t);
  const user = await scene.gateway.createUser('plain-user');
  for (const [method, url, payload] of [
    ['POST', '/api/channel/', runtimeChannel(scene)],
    ['PUT', '/api/channel/', { name: 'gx-file', enabled: false }],
    ['DELETE', '/api/channel/gx-file', undefined],
  ] as const) {
    const answer = await call(scene, method, url, payload, user);
    t.equal(answer.statusCode, 403, `${method} ${url}`);
    t.match(answer.json().message, /is for admins only/);
  }
  t.match(await listed(scene), [{ name: 'gx-file', enabled: true }], 'nothing changed');
  t.equal((await listed(scene)).length, 1);
});

t.test('the channel routes answer with and without the trailing slash, and a wrong method gets 405 naming the allowed ones', async (t) => {
  const scene = await runtimeScene(t);
  t.equal((await call(scene, 'GET', '/api/channel')).statusCode, 200);
  t.equal((await call(scene, 'POST', '/api/channel', runtimeChannel(scene))).statusCode, 200);
  t.equal((await call(scene, 'PUT', '/api/channel', { name: 'gx-runtime', enabled: false })).statusCode, 200);
  t.equal((await call(scene, 'DELETE', '/api/channel/gx-runtime/')).statusCode, 200);
  const wrong = await call(scene, 'PUT', '/api/channel/gx-file');
  t.equal(wrong.statusCode, 405);
  t.equal(wrong.headers.allow, 'DELETE');
});

t.test('a created channel serves its model on the next request, and a change, a disable, an enable and a delete each take effect on the next one', async (t) => {
  const scene = await runtimeScene(t);
  const token = await issueToken(t, scene.gateway);
  const chat = (model: string, text: string) => postChat(scene.gateway, token, chatBody(text, { model }));
  t.equal((await chat('gx-3-runtime', 'before')).statusCode, 404, 'no channel serves the model yet');

  t.equal((await call(scene, 'POST', '/api/channel/', runtimeChannel(scene, { api_key: 'a-key-gx-refuses-00' }))).statusCode, 200);
  const refused = await chat('gx-3-runtime', 'with the wrong key');
  t.equal(refused.statusCode, 502, 'the new channel is tried at once');
  t.equal(refused.json().error.code, 'upstream_auth_failed', 'with the key it was given');

  t.equal((await call(scene, 'PUT', '/api/channel/', { name: 'gx-runtime', api_key: gxUpstreamKey })).statusCode, 200);
  t.equal((await chat('gx-3-runtime', 'with the right key')).statusCode, 200, 'a changed key is used on the next request');
  t.equal(scene.upstream.requests.at(-1)?.path, '/v1beta/models/gx-3-runtime:generateContent');
  t.match((await listed(scene)).find((item) => item.name === 'gx-runtime'), { circuit: 'closed', recent: { requests: 2, errors: 1 } }, 'its attempts are in its recent figures');

  t.equal((await call(scene, 'PUT', '/api/channel/', { name: 'gx-runtime', models: ['gx-3-renamed'] })).statusCode, 200);
  t.equal((await chat('gx-3-runtime', 'an old model')).statusCode, 404, 'a model the channel no longer lists is not served');
  t.equal((await chat('gx-3-renamed', 'the new model')).statusCode, 200, 'the one it lists now is, with the key it kept');

  t.equal((await call(scene, 'PUT', '/api/channel/', { name: 'gx-runtime', enabled: false })).statusCode, 200);
  const disabled = await chat('gx-3-renamed', 'disabled');
  t.equal(disabled.statusCode, 404);
  t.match(disabled.json().error, { code: 'model_not_found', message: /no channel serves model "gx-3-renamed"/ }, 'a disabled channel serves nothing: the no-channel error');
  t.same(
    ((await call(scene, 'GET', '/api/channel/')).json().data.items as Array<{ name: string; enabled: boolean }>).map(({ name, enabled }) => [name, enabled]),
    [
      ['gx-file', true],
      ['gx-runtime', false],
    ],
    'it is still listed, disabled',
  );
  t.equal((await call(scene, 'PUT', '/api/channel/', { name: 'gx-runtime', enabled: true })).statusCode, 200);
  t.equal((await chat('gx-3-renamed', 'enabled again')).statusCode, 200, 'enabled again, it serves');

  t.equal((await call(scene, 'DELETE', '/api/channel/gx-runtime')).statusCode, 200);
  t.equal((await chat('gx-3-renamed', 'deleted')).statusCode, 404, 'a deleted channel serves nothing');
  t.same((await listed(scene)).map((item) => item.name), ['gx-file'], 'and is no longer listed');
  const models = (await scene.gateway.app.inject({ method: 'GET', url: '/v1/models', headers: token.bearer })).json().data.map((model: { id: string }) => model.id);
  t.notOk(models.includes('gx-3-renamed'), 'nor among the models');

  t.equal((await call(scene, 'PUT', '/api/channel/', { name: 'gx-file', enabled: false })).statusCode, 200);
  t.equal((await chat('gx-2.5-pro', 'file channel disabled')).statusCode, 404, 'a disabled file channel serves nothing either');
  t.equal((await call(scene, 'PUT', '/api/channel/', { name: 'gx-file', enabled: true })).statusCode, 200);
  t.equal((await chat('gx-2.5-pro', 'file channel enabled')).statusCode, 200, 'until it is enabled');
});

t.test('a disabled channel drains: the stream under way on it finishes, the next request goes to the other channel', async (t) => {
  const scene = await runtimeScene(t);
  const other = await startGx(t);
  const token = await issueToken(t, scene.gateway);
  const created = await call(scene, 'POST', '/api/channel/', runtimeChannel(scene, { base_url: other.url, api_key: gxUpstreamKey, models: ['gx-2.5-pro'], priority: 10 }));
  t.equal(created.statusCode, 200, 'a channel of a higher priority for the file channel\'s model');
  t.equal((await postChat(scene.gateway, token, chatBody('first'))).statusCode, 200);
  t.equal(other.requests.length, 1, 'which is tried first');

  other.next({ stallAfterChunks: 1, stallMs: 1000 });
  const streaming = postChat(scene.gateway, token, chatBody('a long answer', { stream: true }));
  for (const until = Date.now() + 10_000; other.requests.length < 2 && Date.now() < until; ) await new Promise((resolve) => setTimeout(resolve, 10));
  t.equal(other.requests.length, 2, 'the stream is under way on the runtime channel');
  t.equal((await call(scene, 'PUT', '/api/channel/', { name: 'gx-runtime', enabled: false })).statusCode, 200, 'which is disabled meanwhile');

  const next = await postChat(scene.gateway, token, chatBody('after the drain began'));
  t.equal(next.statusCode, 200, 'the next request is answered');
  t.equal(other.requests.length, 2, 'not by the disabled channel');
  t.equal(scene.upstream.requests.length, 1, 'by the file channel');

  const stream = await streaming;
  t.equal(stream.statusCode, 200);
  const frames = sseData(stream.payload);
  t.equal(frames.at(-1), '[DONE]', 'the stream under way finished whole');
  t.ok(streamedText(stream.payload).length > 0, 'with its text');
});

t.test('a change the gateway refuses is undone and answered as a 400 naming the field', async (t) => {
  const scene = await runtimeScene(t);
  const unpriced = await call(scene, 'POST', '/api/channel/', runtimeChannel(scene, { models: ['zz-unpriced-model'] }));
  t.equal(unpriced.statusCode, 400);
  t.match(unpriced.json().message, /^models\[0\]: "zz-unpriced-model" \(channel gx-runtime\) has no price in pricing or the price catalog: add it under pricing/);
  t.same((await listed(scene)).map((item) => item.name), ['gx-file'], 'the refused channel was not kept');

  t.equal((await call(scene, 'POST', '/api/channel/', runtimeChannel(scene, { api_key: gxUpstreamKey }))).statusCode, 200);
  const changed = await call(scene, 'PUT', '/api/channel/', { name: 'gx-runtime', models: ['zz-unpriced-model'] });
  t.equal(changed.statusCode, 400);
  t.match(changed.json().message, /^models\[0\]: "zz-unpriced-model"/);
  t.match(await listed(scene), [{ name: 'gx-file' }, { name: 'gx-runtime', models: ['gx-3-runtime'] }], 'the channel is as it was');
  const token = await issueToken(t, scene.gateway);
  t.equal((await postChat(scene.gateway, token, chatBody('still served', { model: 'gx-3-runtime' }))).statusCode, 200, 'and serves as it did');
});

t.test('stored channels and a disabled file channel outlive a restart on SQLite', async (t) => {
  const upstream = await startGx(t);
  const first = await buildTestApp(t, 'sqlite', { pricing: scenarioPricing, providers: [gxChannel('gx-file', upstream.url)] });
  const admin = (await first.app.gateway.resolve(UserService).create('root', 'admin')).loginToken;
  const scene: Scene = { gateway: first, upstream, admin };
  t.equal((await call(scene, 'POST', '/api/channel/', runtimeChannel(scene, { api_key: gxUpstreamKey }))).statusCode, 200);
  t.equal((await call(scene, 'PUT', '/api/channel/', { name: 'gx-file', enabled: false })).statusCode, 200);
  const token = await issueToken(t, first);
  await first.app.close();

  const second = await buildTestApp(t, 'sqlite', {}, { config: first.config });
  t.match((await second.asUser(admin, { method: 'GET', url: '/api/channel/' })).json().data.items, [
    { name: 'gx-file', source: 'file', enabled: false },
    { name: 'gx-runtime', source: 'store', enabled: true },
  ]);
  t.equal((await postChat(second, token, chatBody('after the restart', { model: 'gx-3-runtime' }))).statusCode, 200, 'the stored channel serves');
  t.equal((await postChat(second, token, chatBody('after the restart'))).statusCode, 404, 'the file channel stays drained');
});

for (const driver of ['postgres', 'redis'] as const) {
  t.test(`two gateways sharing ${driver}: a channel created, disabled and deleted on one takes effect on the other`, async (t) => {
    const upstream = await startGx(t);
    const one = await buildTestApp(t, driver, { pricing: scenarioPricing, providers: [gxChannel('gx-file', upstream.url)] });
    const other = await buildTestApp(t, driver, {}, { config: one.config });
    const admin = (await one.app.gateway.resolve(UserService).create('root', 'admin')).loginToken;
    const scene: Scene = { gateway: one, upstream, admin };
    const token = await issueToken(t, one);
    const chatOnOther = (text: string) => postChat(other, token, chatBody(text, { model: 'gx-3-runtime' }));
    /** Polls the other gateway until `done` holds of its answer, for at most 10 s (the change is meant to be there within 1 s). */
    const onOther = async (done: (status: number) => boolean) => {
      let status = 0;
      for (const until = Date.now() + 10_000; Date.now() < until; ) {
        status = (await chatOnOther('polling')).statusCode;
        if (done(status)) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return status;
    };
    t.equal((await chatOnOther('before')).statusCode, 404, 'the other gateway serves no such model yet');

    t.equal((await call(scene, 'POST', '/api/channel/', runtimeChannel(scene, { api_key: gxUpstreamKey }))).statusCode, 200, 'created on one');
    t.equal(await onOther((status) => status === 200), 200, 'served by the other');
    t.match((await other.asUser(admin, { method: 'GET', url: '/api/channel/' })).json().data.items, [{ name: 'gx-file' }, { name: 'gx-runtime', source: 'store', enabled: true }], 'and listed there');

    t.equal((await call(scene, 'PUT', '/api/channel/', { name: 'gx-runtime', enabled: false })).statusCode, 200, 'disabled on one');
    t.equal(await onOther((status) => status === 404), 404, 'drained on the other');
    t.equal((await call(scene, 'PUT', '/api/channel/', { name: 'gx-runtime', enabled: true })).statusCode, 200, 'enabled on one');
    t.equal(await onOther((status) => status === 200), 200, 'serving on the other again');
    t.equal((await call(scene, 'DELETE', '/api/channel/gx-runtime')).statusCode, 200, 'deleted on one');
    t.equal(await onOther((status) => status === 404), 404, 'gone from the other');
  });
}

t.test("a reload of the config file keeps the stored channels and a file channel's disabled state, and a file channel of a stored one's name takes its place", async (t) => {
  const upstream = await startGx(t);
  const fileConfig = (providers: unknown[]) => ({
    server: { host: '127.0.0.1', port: 0 },
    storage: { driver: 'memory', data_dir: t.testdir({}) },
    security: { encryption_key: testEncryptionKey },
    pricing: scenarioPricing,
    providers,
  });
  const file = writeGatewayConfig(t, fileConfig([gxChannel('gx-file', upstream.url), gxChannel('gx-drained', upstream.url, { models: ['gx-2.5-pro-drained'] })]));
  const { config } = loadConfigFile(file);
  const gateway = await buildTestApp(t, 'memory', {}, { config, configFile: file });
  const admin = (await gateway.app.gateway.resolve(UserService).create('root', 'admin')).loginToken;
  const scene: Scene = { gateway, upstream, admin };
  const token = await issueToken(t, gateway);
  const chat = (model: string) => postChat(gateway, token, chatBody('hello', { model }));
  t.equal((await call(scene, 'POST', '/api/channel/', runtimeChannel(scene, { api_key: gxUpstreamKey }))).statusCode, 200);
  t.equal((await call(scene, 'PUT', '/api/channel/', { name: 'gx-drained', enabled: false })).statusCode, 200);

  writeFileSync(file, JSON.stringify(fileConfig([gxChannel('gx-file', upstream.url), gxChannel('gx-drained', upstream.url, { models: ['gx-2.5-pro-drained'] }), gxChannel('gx-added', upstream.url, { models: ['gx-2.5-pro-added'] })])));
  const reloaded = await call(scene, 'POST', '/api/config/reload');
  t.match(reloaded.json(), { success: true, data: { status: 'applied', channels: { added: ['gx-added'], removed: [] } } }, 'the reload adds the file\'s new channel');
  t.equal((await chat('gx-2.5-pro-added')).statusCode, 200, 'which serves');
  t.equal((await chat('gx-3-runtime')).statusCode, 200, 'beside the stored channel');
  t.equal((await chat('gx-2.5-pro-drained')).statusCode, 404, 'and the disabled file channel stays drained');
  t.same(
    (await listed(scene)).map((item) => [item.name, item.source, item.enabled]),
    [
      ['gx-file', 'file', true],
      ['gx-drained', 'file', false],
      ['gx-added', 'file', true],
      ['gx-runtime', 'store', true],
    ],
  );

  writeFileSync(file, JSON.stringify(fileConfig([gxChannel('gx-file', upstream.url), gxChannel('gx-runtime', upstream.url, { models: ['gx-2.5-pro-file'] })])));
  t.match((await call(scene, 'POST', '/api/config/reload')).json(), { success: true, data: { status: 'applied' } });
  t.match(await listed(scene), [{ name: 'gx-file', source: 'file' }, { name: 'gx-runtime', source: 'file', models: ['gx-2.5-pro-file'] }], 'the file is the source of truth of a name it takes');
  t.equal((await listed(scene)).length, 2);
  t.equal((await chat('gx-2.5-pro-file')).statusCode, 200, "the file's channel of that name serves");
  t.equal((await chat('gx-3-runtime')).statusCode, 404, 'the stored one does not');
});

t.test("a reload refused for a file channel after a disabled one names the file's own path and line, and one refused for a stored channel names that channel", async (t) => {
  const upstream = await startGx(t);
  const fileConfig = (providers: unknown[], pricing: Record<string, unknown> = scenarioPricing) => ({
    server: { host: '127.0.0.1', port: 0 },
    storage: { driver: 'memory', data_dir: t.testdir({}) },
    security: { encryption_key: testEncryptionKey },
    pricing,
    providers,
  });
  const channels = [gxChannel('gx-a', upstream.url), gxChannel('gx-b', upstream.url, { models: ['gx-2.5-pro-b'] }), gxChannel('gx-c', upstream.url, { models: ['gx-2.5-pro-c'] })];
  const file = writeGatewayConfig(t, fileConfig(channels));
  const gateway = await buildTestApp(t, 'memory', {}, { config: loadConfigFile(file).config, configFile: file });
  const admin = (await gateway.app.gateway.resolve(UserService).create('root', 'admin')).loginToken;
  const scene: Scene = { gateway, upstream, admin };
  t.equal((await call(scene, 'PUT', '/api/channel/', { name: 'gx-b', enabled: false })).statusCode, 200, 'the second file channel is disabled');
  t.equal((await call(scene, 'POST', '/api/channel/', runtimeChannel(scene))).statusCode, 200, 'and a channel stored');

  const broken = JSON.stringify(fileConfig([channels[0], channels[1], { ...channels[2], options: { region: 'eu' } }]), null, 2);
  writeFileSync(file, broken);
  const refused = await call(scene, 'POST', '/api/config/reload');
  t.equal(refused.statusCode, 422);
  const regionLine = broken.split('\n').findIndex((line) => line.includes('"region"')) + 1;
  t.same(refused.json().data.problems, [{ path: 'providers[2].options.region', message: 'unknown key', line: regionLine }], "the third file channel's own index and line, though the second is left out");

  const unpriced = { 'gx-2.5-pro*': { input_per_mtok: 1, output_per_mtok: 2 } };
  writeFileSync(file, JSON.stringify(fileConfig(channels, unpriced), null, 2));
  const storedRefused = await call(scene, 'POST', '/api/config/reload');
  t.equal(storedRefused.statusCode, 422);
  t.match(storedRefused.json().data.problems, [{ path: 'stored channel gx-runtime: models[0]', message: /"gx-3-runtime" \(channel gx-runtime\) has no price/ }], 'the stored channel is named as such');
  t.equal(storedRefused.json().data.problems[0].line, undefined, 'with no line of the file');
  t.equal((await call(scene, 'DELETE', '/api/channel/gx-runtime')).statusCode, 200, 'the stored channel is deleted');
  t.match((await call(scene, 'POST', '/api/config/reload')).json(), { success: true, data: { status: 'applied' } }, 'and the file reloads');
});
