import { randomBytes } from 'node:crypto';
import t, { type Test } from 'tap';
import type { GatewayConfig } from '../../core/config/config-schema.js';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../fakes/openai/fake-openai-upstream.js';
import { isRunning, listeningUrl, startCliGateway, writeGatewayConfig, type CliGatewayProcess, type LogEntry } from '../helpers/cli-gateway-process.js';
import { httpCall } from '../helpers/http-call.js';
import { balanceAt, issueSceneToken, sleep, startMultiInstanceScene, unitsPerCall, type MultiInstanceScene } from '../helpers/multi-instance-scene.js';
import { storageFor, testEncryptionKey } from '../helpers/test-config.js';

// kill -9 of a gateway with streams in flight: the quota their reservations hold comes back
// once the lease runs out, given back by the instance that survives (Redis, PostgreSQL) or by
// the gateway started again on the same file (SQLite with workers), and the concurrency slots
// they took (max_concurrent) are free again. A short lease keeps the test to seconds.

const leaseSeconds = 2;
const streams = 4;

/** The token's limit of requests in flight: the streams, so one more is refused. */
const rateLimits = { tokens: { max_concurrent: streams } };

/** Starts `count` gp-mini chat streams through `base` that the upstream holds open after its first text; resolves with their statuses once each has its headers. */
async function openStalledStreams(t: Test, upstream: FakeOpenAiUpstream, base: string, bearer: { authorization: string }, count: number): Promise<number[]> {
  for (let index = 0; index < count; index += 1) upstream.next({ stallAfterChunks: 2 });
  const controller = new AbortController();
  t.teardown(() => controller.abort());
  const answers = await Promise.all(
    Array.from({ length: count }, () =>
      fetch(`${base}/v1/chat/completions`, {
        method: 'POST',
        headers: { ...bearer, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gp-mini', stream: true, messages: [{ role: 'user', content: 'held open' }] }),
        signal: controller.signal,
      }),
    ),
  );
  // Their bodies are left unread (cancelling one would be a client abort): each stream stays
  // open until the gateway dies or the test ends.
  upstream.reset();
  return answers.map((answer) => answer.status);
}

/** Tries until `streams` new streams through `base` are all admitted (the dead instance's slots expire with its lease); resolves with the last statuses. */
async function slotsFreeAgain(t: Test, upstream: FakeOpenAiUpstream, base: string, bearer: { authorization: string }): Promise<number[]> {
  let statuses: number[] = [];
  for (let tries = 0; tries < leaseSeconds * 5 * 10; tries += 1) {
    statuses = await openStalledStreams(t, upstream, base, bearer, streams);
    if (statuses.every((status) => status === 200)) break;
    await sleep(100);
  }
  return statuses;
}

/** Kills every process of a gateway (its primary and workers) with SIGKILL, and waits for the primary's exit. */
async function killMinusNine(gateway: CliGatewayProcess): Promise<void> {
  for (const pid of new Set([gateway.child.pid, ...gateway.entries().map((entry) => entry.pid)])) {
    if (pid !== undefined && isRunning(pid)) process.kill(pid, 'SIGKILL');
  }
  await gateway.exited;
}

/** Reads the balance through `read` until `done` holds, for at most five leases; returns the last one read. */
async function balanceOnceSettled<Balance>(read: () => Promise<Balance>, done: (balance: Balance) => boolean): Promise<Balance> {
  let balance = await read();
  for (let tries = 0; tries < leaseSeconds * 5 * 10 && !done(balance); tries += 1) {
    await sleep(100);
    balance = await read();
  }
  return balance;
}

for (const driver of ['redis', 'postgres'] as const) {
  t.test(`kill -9 of one of two instances on ${driver} with streams in flight: the other gives back every hold and frees every slot within the lease`, async (t) => {
    const storage: GatewayConfig['storage'] = { ...storageFor(t, driver), lease_seconds: leaseSeconds };
    const scene: MultiInstanceScene = await startMultiInstanceScene(t, storage, [1, 1], { rate_limits: rateLimits });
    const [doomed, survivor] = scene.instances as [MultiInstanceScene['instances'][0], MultiInstanceScene['instances'][0]];
    const token = await issueSceneToken(scene, survivor.base, { remain_quota: 100_000 });
    const before = await balanceAt(scene, survivor.base, token.id);

    t.same(await openStalledStreams(t, scene.upstreamA, doomed.base, token.bearer, streams), Array(streams).fill(200));
    t.match(await balanceAt(scene, survivor.base, token.id), { remain_quota: before.remain_quota - streams * unitsPerCall }, 'each stream holds its reservation');
    t.same(await openStalledStreams(t, scene.upstreamA, survivor.base, token.bearer, 1), [429], 'and its slot, counted by the other instance too');
    await killMinusNine(doomed.process);

    const after = await balanceOnceSettled(
      () => balanceAt(scene, survivor.base, token.id),
      (balance) => balance.remain_quota === before.remain_quota,
    );
    t.same(after, before, 'remain_quota is back to its value before the streams, and nothing was charged');
    t.same(await slotsFreeAgain(t, scene.upstreamA, survivor.base, token.bearer), Array(streams).fill(200), "the dead instance's slots are free again");
  });
}

t.test('kill -9 of a gateway with two workers on SQLite with streams in flight: the gateway started again gives back every hold and frees every slot within the lease', async (t) => {
  const upstreamKey = 'gp-upstream-key';
  const upstream = await startFakeOpenAiUpstream({ apiKey: upstreamKey });
  t.teardown(() => upstream.close());
  const loginToken = `mgu_${randomBytes(24).toString('hex')}`;
  const asOperator = { authorization: `Bearer ${loginToken}` };
  const file = writeGatewayConfig(t, {
    server: { host: '127.0.0.1', port: 0, shutdown_grace_ms: 2000, workers: 2 },
    storage: { ...storageFor(t, 'sqlite'), lease_seconds: leaseSeconds },
    security: { encryption_key: testEncryptionKey },
    users: [{ id: 1, username: 'operator', login_token: loginToken }],
    pricing: { 'gp-mini': { per_call: 0.002 } },
    rate_limits: rateLimits,
    providers: [{ name: 'gp-main', plugin: 'gp', base_url: upstream.url, api_key: upstreamKey, models: ['gp-mini'], model_map: { 'gp-mini': 'gpt-5.4-mini' } }],
  });
  const start = async () => {
    const gateway = startCliGateway(t, file);
    const listening = await gateway.waitForLogs(/^Server listening at /, 2, { timeoutMilliseconds: 150_000 });
    await gateway.waitForLog(/^every worker is listening$/, { timeoutMilliseconds: 150_000 });
    return { gateway, base: listeningUrl(listening[0] as LogEntry) };
  };
  const first = await start();
  const created = await httpCall(`${first.base}/api/token/`, { headers: asOperator, body: { name: 'kill', remain_quota: 100_000 } });
  t.equal(created.json().success, true);
  const id = (await httpCall(`${first.base}/api/token/?size=1`, { headers: asOperator })).json().data.items[0].id as number;
  const key = (await httpCall(`${first.base}/api/token/${id}/key`, { method: 'POST', headers: asOperator })).json().data.key as string;
  const balance = async (base: string) => {
    const { remain_quota, used_quota } = (await httpCall(`${base}/api/token/${id}`, { headers: asOperator })).json().data as { remain_quota: number; used_quota: number };
    return { remain_quota, used_quota };
  };
  const before = await balance(first.base);

  // Several streams, so that both workers (the cluster hands connections out in turn) hold some.
  const bearer = { authorization: `Bearer sk-${key}` };
  t.same(await openStalledStreams(t, upstream, first.base, bearer, streams), Array(streams).fill(200));
  t.same(await balance(first.base), { remain_quota: before.remain_quota - streams * unitsPerCall, used_quota: 0 }, 'each stream holds its reservation');
  t.same(await openStalledStreams(t, upstream, first.base, bearer, 1), [429], 'and its slot, counted by both workers');
  await killMinusNine(first.gateway);

  const second = await start();
  const after = await balanceOnceSettled(
    () => balance(second.base),
    (current) => current.remain_quota === before.remain_quota,
  );
  t.same(after, before, 'remain_quota is back to its value before the streams, and nothing was charged');
  t.same(await slotsFreeAgain(t, upstream, second.base, bearer), Array(streams).fill(200), "the killed gateway's slots are free again");
});
