import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t, { type Test } from 'tap';
import { loadConfigFile } from '../../core/config/load-config.js';
import { UserService } from '../../core/users/user-service.js';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { writeGatewayConfig } from '../helpers/cli-gateway-process.js';
import { chatBody, gxChannel, issueToken, postChat, scenarioPricing, sseData, startGx, streamedText } from '../helpers/gateway-scenario.js';
import { storageFor, testEncryptionKey, type StorageDriver } from '../helpers/test-config.js';

/** A gateway config as the operator writes it: JSON is YAML. */
type ConfigText = Record<string, unknown>;

function configWith(t: Test, driver: StorageDriver, providers: unknown[], sections: ConfigText = {}, storage = storageFor(t, driver)): ConfigText {
  return {
    server: { host: '127.0.0.1', port: 0 },
    storage,
    security: { encryption_key: testEncryptionKey },
    pricing: scenarioPricing,
    routing: { max_attempts: 1, circuit_breaker: { failure_threshold: 1, cooldown_ms: 600_000 } },
    providers,
    ...sections,
  };
}

/** A gateway built from a config file, as `start` builds it, with an admin's login. */
async function gatewayFromFile(t: Test, file: string): Promise<TestApp & { admin: string }> {
  const { config } = loadConfigFile(file);
  const gateway = await buildTestApp(t, config.storage.driver, {}, { config, configFile: file });
  const admin = (await gateway.app.gateway.resolve(UserService).create(`admin-${Math.random().toString(36).slice(2, 8)}`, 'admin')).loginToken;
  return { ...gateway, admin };
}

function rewrite(file: string, config: ConfigText): void {
  writeFileSync(file, JSON.stringify(config, null, 2));
}

const reload = (gateway: TestApp & { admin: string }) => gateway.asUser(gateway.admin, { method: 'POST', url: '/api/config/reload' });

async function until(condition: () => boolean, what: string, milliseconds = 10_000): Promise<void> {
  const deadline = Date.now() + milliseconds;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const channelsOf = async (gateway: TestApp & { admin: string }) =>
  (await gateway.asUser(gateway.admin, { method: 'GET', url: '/api/channel/' })).json().data.items as Array<{ name: string; circuit: string }>;

t.test('streams and plain requests running through a reload all complete on the channel they started on, and later requests use the new one', async (t) => {
  const before = await startGx(t);
  const after = await startGx(t);
  const config = configWith(t, 'memory', [gxChannel('gx-main', before.url)]);
  const file = writeGatewayConfig(t, config);
  const gateway = await gatewayFromFile(t, file);
  const token = await issueToken(t, gateway);

  const streams = 15;
  const plain = 15;
  // The old upstream paces its streams and holds its plain answers, so every request is in flight when the reload lands.
  for (let index = 0; index < streams + plain; index += 1) before.next({ chunkDelayMs: 60, stallBeforeHeadersMs: index >= streams ? 400 : 0 });
  const inFlight = [
    ...Array.from({ length: streams }, (_, index) => postChat(gateway, token, chatBody(`stream ${index}`, { stream: true })).then((response) => ({ response, text: `stream ${index}`, stream: true }))),
    ...Array.from({ length: plain }, (_, index) => postChat(gateway, token, chatBody(`plain ${index}`)).then((response) => ({ response, text: `plain ${index}`, stream: false }))),
  ];
  await until(() => before.requests.length === streams + plain, 'the old upstream has every request');

  rewrite(file, { ...config, providers: [gxChannel('gx-main', after.url)] });
  const reloaded = await reload(gateway);
  t.equal(reloaded.statusCode, 200, 'the reload answers 200');
  t.match(reloaded.json(), { success: true, data: { status: 'applied', changed: ['providers'], channels: { added: [], removed: [], changed: ['gx-main'] }, needs_restart: [] } }, 'it says the channel changed');

  for (const { response, text, stream } of await Promise.all(inFlight)) {
    t.equal(response.statusCode, 200, `${text} answers 200`);
    if (stream) {
      t.equal(streamedText(response.payload), `echo: ${text}`, `${text} streams its whole answer`);
      t.equal(sseData(response.payload).at(-1), '[DONE]', `${text} ends with [DONE]`);
    } else {
      t.equal(response.json().choices[0].message.content, `echo: ${text}`, `${text} gets its whole answer`);
    }
  }
  t.equal(after.requests.length, 0, 'no request that started before the reload went to the new upstream');

  const later = await Promise.all(Array.from({ length: 10 }, (_, index) => postChat(gateway, token, chatBody(`later ${index}`, { stream: index % 2 === 0 }))));
  t.same(later.map((response) => response.statusCode), Array(10).fill(200), 'requests after the reload answer 200');
  t.equal(after.requests.length, 10, 'every request after the reload goes to the new upstream');
  t.equal(before.requests.length, streams + plain, 'and none to the old one');
});

t.test('a reload of a broken file changes nothing and names the path and line of each problem', async (t) => {
  const upstream = await startGx(t);
  const config = configWith(t, 'memory', [gxChannel('gx-main', upstream.url)]);
  const file = writeGatewayConfig(t, config);
  const gateway = await gatewayFromFile(t, file);
  const token = await issueToken(t, gateway);
  const lineOf = (needle: string) => readFileSync(file, 'utf8').split('\n').findIndex((line) => line.includes(needle)) + 1;

  t.test('a schema error', async (t) => {
    rewrite(file, { ...config, routing: { max_attempts: 'many' }, providers: [gxChannel('gx-other', upstream.url)] });
    const response = await reload(gateway);
    t.equal(response.statusCode, 422, 'the reload answers 422');
    const body = response.json();
    t.equal(body.success, false);
    t.match(body.data, { status: 'refused', problems: [{ path: 'routing.max_attempts', line: lineOf('"max_attempts"') }] }, 'the problem is named by path and line');
    t.match(body.message, `routing.max_attempts: expected an integer (line ${lineOf('"max_attempts"')})`, 'and so is the message');
    t.ok(
      gateway.logLines.some((line) => line.includes('config reload refused') && line.includes(`routing.max_attempts: expected an integer (line ${lineOf('"max_attempts"')})`)),
      'the log line names it too',
    );
  });

  t.test('an unknown plugin', async (t) => {
    rewrite(file, { ...config, providers: [gxChannel('gx-main', upstream.url, { plugin: 'no-such-plugin' })] });
    const response = await reload(gateway);
    t.equal(response.statusCode, 422);
    t.match(response.json().data.problems, [{ path: 'providers[0].plugin', message: /cannot load "no-such-plugin"/, line: lineOf('"no-such-plugin"') }]);
  });

  t.test('a model nothing prices', async (t) => {
    rewrite(file, { ...config, providers: [gxChannel('gx-main', upstream.url, { models: ['gx-2.5-pro', 'gx-unpriced'] })] });
    const response = await reload(gateway);
    t.equal(response.statusCode, 422);
    t.match(response.json().data.problems, [{ path: 'providers[0].models[1]', line: lineOf('"gx-unpriced"') }]);
  });

  t.test('and the gateway goes on as before', async (t) => {
    t.same((await channelsOf(gateway)).map((channel) => channel.name), ['gx-main'], 'the channels are those of the last good file');
    const response = await postChat(gateway, token, chatBody('still here'));
    t.equal(response.statusCode, 200);
    t.equal(response.json().choices[0].message.content, 'echo: still here');
  });
});

t.test('an unchanged channel keeps its circuit state across a reload, and a changed upstream URL takes effect', async (t) => {
  const failing = await startGx(t);
  const moving = await startGx(t);
  const moved = await startGx(t);
  const config = configWith(t, 'memory', [
    gxChannel('gx-failing', failing.url, { models: ['gx-3-pro'] }),
    gxChannel('gx-moving', moving.url),
  ]);
  const file = writeGatewayConfig(t, config);
  const gateway = await gatewayFromFile(t, file);
  const token = await issueToken(t, gateway);

  failing.next({ error: 503 });
  t.equal((await postChat(gateway, token, chatBody('fail once', { model: 'gx-3-pro' }))).statusCode, 502, 'one failure');
  t.match(await channelsOf(gateway), [{ name: 'gx-failing', circuit: 'open' }, { name: 'gx-moving', circuit: 'closed' }], 'opens the circuit of gx-failing');

  rewrite(file, { ...config, providers: [gxChannel('gx-failing', failing.url, { models: ['gx-3-pro'] }), gxChannel('gx-moving', moved.url)] });
  const response = await reload(gateway);
  t.match(response.json().data, { status: 'applied', channels: { changed: ['gx-moving'], added: [], removed: [] } });

  t.match(await channelsOf(gateway), [{ name: 'gx-failing', circuit: 'open' }, { name: 'gx-moving', circuit: 'closed' }], 'the unchanged channel is still open');
  const refused = await postChat(gateway, token, chatBody('still cooling', { model: 'gx-3-pro' }));
  t.equal(refused.statusCode, 503, 'and still refuses while it cools down');
  t.equal(refused.json().error.code, 'no_available_channel');
  t.equal(failing.requests.length, 1, 'without calling its upstream');

  const answered = await postChat(gateway, token, chatBody('moved'));
  t.equal(answered.statusCode, 200);
  t.equal(moved.requests.length, 1, 'the changed channel calls its new URL');
  t.equal(moving.requests.length, 0, 'and not the old one');
});

t.test('a change to a restart-only key is reported and not applied, while the rest is', async (t) => {
  const upstream = await startGx(t);
  const config = configWith(t, 'memory', [gxChannel('gx-main', upstream.url)], { budgets: { time_zone: 'UTC' } });
  const file = writeGatewayConfig(t, config);
  const gateway = await gatewayFromFile(t, file);
  const running = gateway.app.reloader.state.config;

  rewrite(file, {
    ...config,
    server: { host: '0.0.0.0', port: 3999 },
    budgets: { time_zone: 'Europe/Berlin' },
    pricing: { ...scenarioPricing, 'gx-2.5-pro*': { input_per_mtok: 3, output_per_mtok: 30 } },
  });
  const response = await reload(gateway);
  t.equal(response.statusCode, 200);
  t.match(response.json().data, { status: 'applied', changed: ['pricing'] }, 'the price is applied');
  t.same(response.json().data.needs_restart.sort(), ['budgets.time_zone', 'server.host', 'server.port'], 'the restart-only keys are reported');

  const inForce = gateway.app.reloader.state.config;
  t.same(inForce.server, running.server, 'the server keeps its running settings');
  t.equal(inForce.budgets.time_zone, 'UTC', 'the budgets keep their time zone');
  t.same(inForce.pricing['gx-2.5-pro*'], { input_per_mtok: 3, output_per_mtok: 30 }, 'the new price is in force');
  t.ok(gateway.logLines.some((line) => line.includes('needs a restart (not applied): ') && line.includes('server.port')), 'the log line says what needs a restart');

  t.test('a file that changes only restart-only keys changes nothing', async (t) => {
    const again = await reload(gateway);
    t.match(again.json().data, { status: 'unchanged', changed: [] });
    t.same(again.json().data.needs_restart.sort(), ['budgets.time_zone', 'server.host', 'server.port']);
  });
});

t.test('a reload adds and removes channels, aliases and users', async (t) => {
  const upstream = await startGx(t);
  const config = configWith(t, 'memory', [gxChannel('gx-main', upstream.url)]);
  const file = writeGatewayConfig(t, config);
  const gateway = await gatewayFromFile(t, file);
  const token = await issueToken(t, gateway);
  const loginToken = `mgu_${'a'.repeat(48)}`;

  rewrite(file, {
    ...config,
    providers: [gxChannel('gx-new', upstream.url, { models: ['gx-3-pro'] })],
    aliases: { smart: 'gx-3-pro' },
    users: [{ id: 90, username: 'added-by-reload', login_token: loginToken, role: 'admin' }],
  });
  const response = await reload(gateway);
  t.match(response.json().data, { status: 'applied', changed: ['users', 'providers', 'aliases'], channels: { added: ['gx-new'], removed: ['gx-main'], changed: [] } });

  const models = await gateway.app.inject({ method: 'GET', url: '/v1/models', headers: token.bearer });
  t.same(models.json().data.map((model: { id: string }) => model.id), ['gx-3-pro', 'smart'], 'the model list follows the new channels and aliases');
  const viaAlias = await postChat(gateway, token, chatBody('by alias', { model: 'smart' }));
  t.equal(viaAlias.statusCode, 200, 'the new alias routes to the new channel');
  const gone = await postChat(gateway, token, chatBody('old model'));
  t.equal(gone.statusCode, 404, 'the removed channel no longer serves');
  const signedIn = await gateway.app.inject({ method: 'GET', url: '/api/channel/', headers: { authorization: `Bearer ${loginToken}` } });
  t.equal(signedIn.statusCode, 200, 'the user the file added signs in');

  rewrite(file, {
    ...config,
    providers: [gxChannel('gx-new', upstream.url, { models: ['gx-3-pro'] })],
    aliases: { smart: 'gx-3-pro' },
    users: [{ id: 90, username: 'added-by-reload', login_token: loginToken, role: 'user' }],
  });
  t.match((await reload(gateway)).json().data, { status: 'applied', changed: ['users'] });
  const demoted = await gateway.app.inject({ method: 'GET', url: '/api/channel/', headers: { authorization: `Bearer ${loginToken}` } });
  t.equal(demoted.statusCode, 403, 'a role the file takes away is gone after the reload');
});

t.test('POST /api/config/reload is for admins only', async (t) => {
  const upstream = await startGx(t);
  const file = writeGatewayConfig(t, configWith(t, 'memory', [gxChannel('gx-main', upstream.url)]));
  const gateway = await gatewayFromFile(t, file);
  const user = await gateway.createUser('plain-user');
  const response = await gateway.asUser(user, { method: 'POST', url: '/api/config/reload' });
  t.equal(response.statusCode, 403);
  t.match(response.json(), { success: false, message: /for admins only/ });
});

t.test('the API reload reaches another instance on the same store, which reloads its own file', async (t) => {
  const first = await startGx(t);
  const second = await startGx(t);
  const storage = storageFor(t, 'postgres');
  // Each instance its own file (a test's testdir is one directory, however often asked for).
  const fileA = join(t.testdir({}), 'instance-a.yaml');
  const fileB = join(t.testdir({}), 'instance-b.yaml');
  rewrite(fileA, configWith(t, 'postgres', [gxChannel('gx-main', first.url)], {}, storage));
  const configB = configWith(t, 'postgres', [gxChannel('gx-main', first.url)], {}, storage);
  rewrite(fileB, configB);
  const instanceA = await gatewayFromFile(t, fileA);
  const instanceB = await gatewayFromFile(t, fileB);
  const token = await issueToken(t, instanceB);

  rewrite(fileB, { ...configB, providers: [gxChannel('gx-main', first.url), gxChannel('gx-added', second.url, { models: ['gx-3-pro'] })] });
  const response = await reload(instanceA);
  t.match(response.json().data, { status: "unchanged" }, "the instance asked reloads its own file, which did not change");
  await until(() => instanceB.logLines.some((line) => line.includes('config reloaded') && line.includes('"via":"instance"')), 'the other instance reloads');
  t.ok(
    instanceB.logLines.some((line) => line.includes('"channelsAdded":["gx-added"]')),
    'the other instance logs the channel its own file added',
  );
  const answered = await postChat(instanceB, token, chatBody('on the other instance', { model: 'gx-3-pro' }));
  t.equal(answered.statusCode, 200, 'and serves it');
  t.equal(second.requests.length, 1);
});

t.test("a removed channel's provider is closed once the request using it has finished, and an unchanged one is never closed", async (t) => {
  const plugin = fileURLToPath(new URL('../fixtures/plugins/closable-chat-provider.ts', import.meta.url));
  const { closedProviders, heldCalls, releaseHeld } = await import('../fixtures/plugins/closable-chat-provider.js');
  const entry = (name: string, label: string, model: string) => ({ name, plugin, base_url: 'http://127.0.0.1:9', models: [model], options: { label } });
  const config = configWith(t, 'memory', [entry('kept', 'kept-provider', 'gp-kept'), entry('leaving', 'leaving-provider', 'gp-leaving')], {
    pricing: { 'gp-*': { per_call: 0.001 } },
  });
  const file = writeGatewayConfig(t, config);
  const gateway = await gatewayFromFile(t, file);
  const token = await issueToken(t, gateway);

  const held = postChat(gateway, token, chatBody('hold this', { model: 'gp-leaving' }));
  await until(() => heldCalls() === 1, 'the request is in flight on the leaving channel');
  rewrite(file, { ...config, providers: [entry('kept', 'kept-provider', 'gp-kept')] });
  t.match((await reload(gateway)).json().data, { status: 'applied', channels: { removed: ['leaving'] } });
  t.same(closedProviders, [], 'the removed channel stays open while a request uses it');

  releaseHeld();
  const answer = await held;
  t.equal(answer.statusCode, 200, 'the request in flight completes');
  t.equal(answer.json().choices[0].message.content, 'leaving-provider answers', 'on the removed channel');
  await until(() => closedProviders.length === 1, 'the removed provider is closed');
  t.same(closedProviders, ['leaving-provider'], 'then its provider is closed, and only it');
  t.equal((await postChat(gateway, token, chatBody('after', { model: 'gp-kept' }))).json().choices[0].message.content, 'kept-provider answers', 'the kept channel still answers');
});

t.test('an applied reload is one audit record, with who asked, the sections it changed and the channel keys masked; a refused one is none', async (t) => {
  const upstream = await startGx(t);
  const config = configWith(t, 'sqlite', [gxChannel('gx-main', upstream.url)]);
  const file = writeGatewayConfig(t, config);
  const gateway = await gatewayFromFile(t, file);
  const audit = async () => (await gateway.asUser(gateway.admin, { method: 'GET', url: '/api/audit?action=config.reload' })).json().data.items as Array<Record<string, unknown>>;

  rewrite(file, { ...config, providers: [gxChannel('gx-main', upstream.url), gxChannel('gx-added', upstream.url, { models: ['gx-3-pro'] })] });
  t.match((await reload(gateway)).json().data, { status: 'applied' });
  writeFileSync(file, 'providers: [ {');
  t.match((await reload(gateway)).json().data, { status: 'refused' });

  const records = await audit();
  t.equal(records.length, 1, 'the refused reload changed nothing and has no record');
  const [record] = records as [Record<string, unknown>];
  t.match(record, { action: 'config.reload', source: 'api', target_id: file, target_name: 'gateway.yaml' });
  t.ok(Number(record.user_id) > 0, 'the admin who asked');
  const text = JSON.stringify(record);
  t.notOk(text.includes(String(gxChannel('gx-main', upstream.url).api_key)), 'no channel key in the record');
  t.match(record.after, { providers: [{ name: 'gx-main' }, { name: 'gx-added' }] });
  t.match(record.before, { providers: [{ name: 'gx-main' }] });
  t.notOk('server' in (record.after as object), 'only the sections the reload changed');
});
