import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { runCli } from '../../server/cli.js';
import { startFakeOpenAiUpstream } from '../fakes/openai/fake-openai-upstream.js';
import { isRunning, listeningUrl, startCliGateway, writeGatewayConfig, type LogEntry } from '../helpers/cli-gateway-process.js';
import { httpCall } from '../helpers/http-call.js';
import { storageFor, testEncryptionKey } from '../helpers/test-config.js';

// Reloads of a real `model-gateway start` process: SIGHUP (as systemd's ExecReload sends it),
// with one process and with two workers, and the `model-gateway reload` command.

const upstreamKey = 'gp-upstream-key';
const loginToken = `mgu_${randomBytes(24).toString('hex')}`;
const asOperator = { authorization: `Bearer ${loginToken}` };

const upstream = await startFakeOpenAiUpstream({ apiKey: upstreamKey });
t.teardown(() => upstream.close());

const channel = (name: string) => ({ name, plugin: 'gp', base_url: upstream.url, api_key: upstreamKey, models: ['gp-mini'], model_map: { 'gp-mini': 'gpt-5.4-mini' } });

function configOf(t: Test, workers: number, channels: string[]): Record<string, unknown> {
  return {
    server: { host: '127.0.0.1', port: 0, shutdown_grace_ms: 2000, workers },
    storage: storageFor(t, 'sqlite'),
    security: { encryption_key: testEncryptionKey },
    users: [{ id: 1, username: 'operator', login_token: loginToken, role: 'admin' }],
    pricing: { 'gp-mini': { per_call: 0.002 } },
    providers: channels.map(channel),
  };
}

/** Runs the CLI in this process and keeps what it wrote. */
async function cli(argv: string[]): Promise<{ code: number; out: string; error: string }> {
  let out = '';
  let error = '';
  const code = await runCli(argv, { out: (text) => (out += text), error: (text) => (error += text) });
  return { code, out, error };
}

const channelNames = async (base: string) => ((await httpCall(`${base}/api/channel/`, { headers: asOperator })).json().data.items as Array<{ name: string }>).map((item) => item.name);

t.test('SIGHUP reloads a single gateway process, which logs what changed and keeps serving', async (t) => {
  const config = configOf(t, 1, ['gp-first']);
  const file = writeGatewayConfig(t, config);
  const gateway = startCliGateway(t, file);
  const base = listeningUrl(await gateway.waitForLog(/^Server listening at /));
  t.same(await channelNames(base), ['gp-first']);

  writeFileSync(file, JSON.stringify({ ...config, providers: [channel('gp-first'), channel('gp-second')] }));
  process.kill(gateway.child.pid as number, 'SIGHUP');
  const line = await gateway.waitForLog(/^config reloaded/);
  t.match(line, { via: 'signal', changed: ['providers'], channelsAdded: ['gp-second'], channelsRemoved: [], channelsChanged: [] }, 'one line says which channel was added');
  t.ok(isRunning(gateway.child.pid as number), 'the process is still running');
  t.same(await channelNames(base), ['gp-first', 'gp-second'], 'and serves the new channels');

  t.test('a broken file is logged with its path and line, and changes nothing', async (t) => {
    writeFileSync(file, JSON.stringify({ ...config, providers: [{ ...channel('gp-first'), plugin: 'no-such-plugin' }] }, null, 2));
    process.kill(gateway.child.pid as number, 'SIGHUP');
    const refused = await gateway.waitForLog(/^config reload refused/);
    t.match(refused.msg, /providers\[0\]\.plugin: cannot load "no-such-plugin".*\(line \d+\)/);
    t.same(await channelNames(base), ['gp-first', 'gp-second'], 'the channels stay');
  });
});

t.test('with two workers, SIGHUP to the primary reloads every worker', async (t) => {
  const config = configOf(t, 2, ['gp-first']);
  const file = writeGatewayConfig(t, config);
  const gateway = startCliGateway(t, file);
  const listening = await gateway.waitForLogs(/^Server listening at /, 2);
  const primaryPid = (await gateway.waitForLog(/^every worker is listening$/)).pid;
  const base = listeningUrl(listening[0] as LogEntry);
  const workerPids = listening.map((entry) => entry.pid).sort();

  writeFileSync(file, JSON.stringify({ ...config, providers: [channel('gp-first'), channel('gp-second')] }));
  process.kill(primaryPid, 'SIGHUP');
  const summary = await gateway.waitForLog(/^config reloaded by every worker/);
  t.equal(summary.pid, primaryPid, 'the primary logs one summary');
  t.match(summary.msg, /\(2\): providers changed; channels added: gp-second/);
  const workerLines = await gateway.waitForLogs(/^config reloaded: /, 2, { where: (entry) => entry.pid !== primaryPid });
  t.same(workerLines.map((entry) => entry.pid).sort(), workerPids, 'each worker reloads and logs its line');
  t.same(workerLines.map((entry) => entry.via), ['primary', 'primary']);
  for (let index = 0; index < 4; index += 1) t.same(await channelNames(base), ['gp-first', 'gp-second'], 'whichever worker answers serves the new channels');
  const reloads = async () => (await httpCall(`${base}/api/audit?action=config.reload`, { headers: asOperator })).json().data.items as Array<{ source: string; after: unknown }>;
  const recorded = await reloads();
  t.equal(recorded.length, 1, 'the audit trail has one record of the reload, not one per worker');
  t.match(recorded[0], { source: 'signal', after: { providers: [{ name: 'gp-first' }, { name: 'gp-second' }] } });

  t.test('POST /api/config/reload on one worker reaches the other through the primary', async (t) => {
    writeFileSync(file, JSON.stringify({ ...config, providers: [channel('gp-second')] }));
    const answer = await httpCall(`${base}/api/config/reload`, { method: 'POST', headers: asOperator });
    t.equal(answer.status, 200);
    t.match(answer.json().data, { status: 'applied', channels: { removed: ['gp-first'] } });
    const lines = await gateway.waitForLogs(/^config reloaded: providers changed; channels removed: gp-first/, 2);
    t.same(lines.map((entry) => entry.via).sort(), ['api', 'instance'], 'the worker asked reloads, and the other hears of it');
    t.same(lines.map((entry) => entry.pid).sort(), workerPids, 'one line from each worker');
    for (let index = 0; index < 4; index += 1) t.same(await channelNames(base), ['gp-second']);
    t.same((await reloads()).map((record) => record.source), ['api', 'signal'], 'the API reload is one more record, newest first');
  });
});

t.test('model-gateway reload', async (t) => {
  const config = configOf(t, 1, ['gp-first']);
  const file = writeGatewayConfig(t, config);
  const pidFile = join((config.storage as { data_dir: string }).data_dir, 'gateway.pid');

  t.test('with no gateway running says so in one line', async (t) => {
    const result = await cli(['reload', '--config', file]);
    t.equal(result.code, 1);
    t.match(result.error, /^no running gateway found: .*gateway\.pid does not exist/);
    t.equal(result.error.trim().split('\n').length, 1, 'one line');
  });

  const gateway = startCliGateway(t, file);
  const base = listeningUrl(await gateway.waitForLog(/^Server listening at /));
  t.ok(existsSync(pidFile), 'the gateway writes its pid file');

  t.test('has the running gateway reload and prints what changed', async (t) => {
    writeFileSync(file, JSON.stringify({ ...config, providers: [channel('gp-second')] }));
    const result = await cli(['reload', '--config', file]);
    t.equal(result.code, 0, result.error);
    t.equal(result.out, `reloaded pid ${gateway.child.pid}: providers changed; channels added: gp-second; channels removed: gp-first\n`);
    t.same(await channelNames(base), ['gp-second']);
  });

  t.test('with nothing changed says so', async (t) => {
    const result = await cli(['reload', '--config', file]);
    t.equal(result.code, 0);
    t.equal(result.out, `reloaded pid ${gateway.child.pid}: nothing to change\n`);
  });

  t.test('with a broken file refuses in one line naming the path and line, and the gateway keeps its config', async (t) => {
    writeFileSync(file, JSON.stringify({ ...config, routing: { max_attempts: 'many' }, providers: [channel('gp-first')] }, null, 2));
    const result = await cli(['reload', '--config', file]);
    t.equal(result.code, 1);
    t.match(result.error, /^not reloaded, the running gateway keeps its config: .*gateway\.yaml: routing\.max_attempts: expected an integer \(line \d+\)\n$/);
    t.equal(result.error.split('\n').length, 2, 'one line, no stack');
    t.same(await channelNames(base), ['gp-second']);
  });

  t.test('the pid file is removed when the gateway stops', async (t) => {
    gateway.child.kill('SIGTERM');
    t.equal(await gateway.exited, 0);
    t.notOk(existsSync(pidFile));
  });
});
