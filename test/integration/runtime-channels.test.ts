import t, { type Test } from 'tap';
import { UserService } from '../../core/users/user-service.js';
import type { TestApp } from '../helpers/build-test-app.js';
import { gxChannel, scenarioGateway, startGx } from '../helpers/gateway-scenario.js';

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
  t.equal(channel.config.api_key, 'gx-r**********c0d8', 'the key is masked');
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
});

t.test('bad input to the channel API is a 400 naming the field and what to change', async (t) => {
  const scene = await runtimeScene(t);
  const cases: Array<[string, 'POST' | 'PUT', unknown, RegExp]> = [
    ['no body fields', 'POST', {}, /^name: required/],
    ['not an object', 'POST', [1], /expected a JSON object/],
    ['a name with a space', 'POST', runtimeChannel(scene, { name: 'gx runtime' }), /^name: expected letters, digits/],
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
