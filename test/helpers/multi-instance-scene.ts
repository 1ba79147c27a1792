import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Test } from 'tap';
import type { GatewayConfig } from '../../core/config/config-schema.js';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../fakes/openai/fake-openai-upstream.js';
import { isRunning, listeningUrl, startCliGateway, type CliGatewayProcess, type LogEntry } from './cli-gateway-process.js';
import { httpCall } from './http-call.js';
import { testEncryptionKey } from './test-config.js';

// Gateway processes as on several machines: each its own port and data directory, one shared
// store and one encryption key between them, two fake OpenAI-style upstreams behind them.

const scriptedVideoPlugin = fileURLToPath(new URL('../fixtures/plugins/scripted-video-provider.ts', import.meta.url));
const upstreamKey = 'gp-upstream-key';

/** gp-mini costs 0.002 USD a call: 1000 quota units, reserved and charged alike. */
export const unitsPerCall = 1000;

// A model_map key is a model the channel serves, so each channel maps only its own models.
const upstreamModels: Record<string, string> = { 'gp-5.4': 'gpt-5.4', 'gp-mini': 'gpt-5.4-mini' };
const gpChannel = (name: string, fake: FakeOpenAiUpstream, models: string[]) => ({
  name,
  plugin: 'gp',
  base_url: fake.url,
  api_key: upstreamKey,
  models,
  model_map: Object.fromEntries(models.map((model) => [model, upstreamModels[model]])),
});

/** One gateway, as a load balancer sees it: one address, served by one process or by the workers of a cluster. */
export interface GatewayInstance {
  base: string;
  process: CliGatewayProcess;
  /** The pids of the processes that serve requests (the workers, for a cluster). */
  servingPids: number[];
}

export interface MultiInstanceScene {
  instances: GatewayInstance[];
  bases: string[];
  /** Serves gp-5.4 and gp-mini. */
  upstreamA: FakeOpenAiUpstream;
  /** Serves gp-5.4 only. */
  upstreamB: FakeOpenAiUpstream;
  /** The login of an admin configured on every instance. */
  asOperator: { authorization: string };
}

/**
 * Starts one gateway process per entry of `workers` (its `server.workers`) on `storage`, and
 * waits until every worker of each listens. `sections` add top-level config sections (say
 * `rate_limits`). They are killed when the test ends.
 */
export async function startMultiInstanceScene(t: Test, storage: GatewayConfig['storage'], workers: number[], sections: Record<string, unknown> = {}): Promise<MultiInstanceScene> {
  const upstreamA = await startFakeOpenAiUpstream({ apiKey: upstreamKey });
  const upstreamB = await startFakeOpenAiUpstream({ apiKey: upstreamKey });
  t.teardown(() => Promise.all([upstreamA.close(), upstreamB.close()]));
  const loginToken = `mgu_${randomBytes(24).toString('hex')}`;
  const root = t.testdir({});
  const started: CliGatewayProcess[] = [];
  const instances = await Promise.all(
    workers.map(async (count, index) => {
      // A directory of its own for each (a test's testdir is one directory, however often asked for).
      const directory = join(root, `instance-${index}`);
      mkdirSync(join(directory, 'data'), { recursive: true });
      const file = join(directory, 'gateway.yaml');
      writeFileSync(
        file,
        JSON.stringify({
          server: { host: '127.0.0.1', port: 0, shutdown_grace_ms: 2000, workers: count },
          storage: { ...storage, data_dir: join(directory, 'data') },
          security: { encryption_key: testEncryptionKey },
          users: [{ id: 1, username: 'operator', login_token: loginToken, role: 'admin' }],
          pricing: { 'gp-5.4': { input_per_mtok: 2, output_per_mtok: 8 }, 'gp-mini': { per_call: 0.002 }, 'vx-test': { per_second: 0.1 } },
          providers: [
            gpChannel('gp-a', upstreamA, ['gp-5.4', 'gp-mini']),
            gpChannel('gp-b', upstreamB, ['gp-5.4']),
            { name: 'video-main', plugin: scriptedVideoPlugin, base_url: 'http://127.0.0.1:9', models: ['vx-test'] },
          ],
          // Nobody asks the upstream about a task here: the scripted provider keeps its tasks in the
          // memory of the process that accepted them, so only the shared record can be seen elsewhere.
          tasks: { min_poll_interval_ms: 600_000, background_poll_ms: 3_600_000 },
          ...sections,
        }),
      );
      const gateway = startCliGateway(t, file);
      started.push(gateway);
      // Several gateways compiling their sources at once on a loaded machine start slowly.
      const listening = await gateway.waitForLogs(/^Server listening at /, count, { timeoutMilliseconds: 150_000 });
      if (count > 1) await gateway.waitForLog(/^every worker is listening$/, { timeoutMilliseconds: 150_000 });
      return { base: listeningUrl(listening[0] as LogEntry), process: gateway, servingPids: listening.map((entry) => entry.pid) };
    }),
  ).catch((error: unknown) => {
    // The test file fails at its top level, before any teardown runs: stop them here.
    for (const gateway of started) {
      for (const pid of new Set([gateway.child.pid, ...gateway.entries().map((entry) => entry.pid)])) {
        if (pid !== undefined && isRunning(pid)) process.kill(pid, 'SIGKILL');
      }
    }
    throw error;
  });
  return { instances, bases: instances.map((instance) => instance.base), upstreamA, upstreamB, asOperator: { authorization: `Bearer ${loginToken}` } };
}

/** A token created through one instance's management API, with its revealed key. */
export interface SceneToken {
  id: number;
  bearer: { authorization: string };
}

/** Creates a token through `base`'s management API and reveals its key there, as the operator or as the user whose login `owner` is. */
export async function issueSceneToken(scene: MultiInstanceScene, base: string, fields: Record<string, unknown>, owner = scene.asOperator): Promise<SceneToken> {
  const created = await httpCall(`${base}/api/token/`, { headers: owner, body: { name: 'multi-instance', ...fields } });
  if (created.json().success !== true) throw new Error(`token not created: ${created.body}`);
  const id = (await httpCall(`${base}/api/token/?size=1`, { headers: owner })).json().data.items[0].id as number;
  const key = (await httpCall(`${base}/api/token/${id}/key`, { method: 'POST', headers: owner })).json().data.key as string;
  return { id, bearer: { authorization: `Bearer sk-${key}` } };
}

export interface Balance {
  status: number;
  remain_quota: number;
  used_quota: number;
}

/** The token's balance as `base` reports it. */
export async function balanceAt(scene: MultiInstanceScene, base: string, id: number): Promise<Balance> {
  const { status, remain_quota, used_quota } = (await httpCall(`${base}/api/token/${id}`, { headers: scene.asOperator })).json().data as Balance;
  return { status, remain_quota, used_quota };
}

/** A gp-mini chat request through `base`. */
export const chatThrough = (base: string, token: SceneToken, text: string) =>
  httpCall(`${base}/v1/chat/completions`, { headers: token.bearer, body: { model: 'gp-mini', messages: [{ role: 'user', content: text }] } });

export const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

let requestCount = 0;

/**
 * Sends `GET /v1/models` as the token to `instance` until every one of its serving processes
 * has refused it with `status` (401 by default; a cluster hands each new connection to the
 * next worker), or until `giveUpAfter` ms past `since`. Returns when the last of them refused,
 * in ms after `since` (Infinity when one never did), and the error codes seen.
 */
export async function refusedByEveryProcess(
  instance: GatewayInstance,
  token: SceneToken,
  since: number,
  { status = 401, giveUpAfter = 5000 }: { status?: number; giveUpAfter?: number } = {},
): Promise<{ milliseconds: number; codes: string[] }> {
  const refusing = new Set<number>();
  const codes = new Set<string>();
  for (;;) {
    requestCount += 1;
    const requestId = `refusal-${process.pid}-${requestCount}`;
    const answer = await httpCall(`${instance.base}/v1/models`, { headers: { ...token.bearer, 'x-request-id': requestId } });
    const at = Date.now() - since;
    if (answer.status === status) {
      codes.add(answer.json().error.code as string);
      const [entry] = await instance.process.waitForLogs(/^request answered$/, 1, { where: (logged) => logged.reqId === requestId });
      refusing.add((entry as LogEntry).pid);
      if (instance.servingPids.every((pid) => refusing.has(pid))) return { milliseconds: at, codes: [...codes] };
    }
    if (at > giveUpAfter) return { milliseconds: Infinity, codes: [...codes, String(answer.status)] };
    if (answer.status !== status) await sleep(5);
  }
}
