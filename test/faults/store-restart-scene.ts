import type { LightMyRequestResponse } from 'fastify';
import type { Test } from 'tap';
import { gatewayConfigSchema } from '../../core/config/config-schema.js';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { chatBody, gxChannel, issueToken, nativeBody, postChat, postNative, scenarioPricing, startGx, storedToken, type IssuedToken } from '../helpers/gateway-scenario.js';
import { storageFor, testConfig } from '../helpers/test-config.js';

// The store killed and started again in the middle of a load: while it is down the gateway
// reports itself not ready and refuses model requests with 503 in their dialect before any
// upstream call (quota fails closed); once the store is back the same gateway process serves
// again, and every request that was answered 200 was billed exactly once.

/** A store server of the test's own that can be killed and started again, its data kept. */
export interface RestartableStore {
  /** How the test names it: Redis, PostgreSQL. */
  name: string;
  driver: 'redis' | 'postgres';
  url: string;
  /** Ends the server at once, as a crash would. */
  kill(): Promise<void>;
  start(): Promise<void>;
}

/** The phase a request was sent in; tags have one length so every prompt costs the same. */
type Phase = 'up' | 'kl' | 'dn' | 'rc';

interface Sent {
  /** The phase when the request was sent. */
  phase: Phase;
  /** The phase when its answer arrived. */
  answeredIn: Phase;
  response: LightMyRequestResponse;
}

const startingQuota = 5_000_000;

const workers = 4;

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

async function readiness(gateway: TestApp): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await gateway.app.inject({ method: 'GET', url: '/readyz' });
  return { status: response.statusCode, body: response.json() };
}

/** Disables the token through `gateway`'s management API. */
export async function disable(gateway: TestApp, token: IssuedToken): Promise<void> {
  const response = await gateway.asUser(token.loginToken, { method: 'PUT', url: '/api/token/?status_only=true', payload: { id: token.id, status: 2 } });
  if (response.json().success !== true) throw new Error(`could not disable the token: ${response.payload}`);
}

/** Two gateways on `store`, a load on the first, the store killed and started again in its middle, and what a client must see. */
export async function storeRestartUnderLoad(t: Test, store: RestartableStore): Promise<void> {
  const fake = await startGx(t);
  const storage = gatewayConfigSchema.shape.storage.parse({ ...storageFor(t, 'memory'), driver: store.driver, url: store.url });
  const config = testConfig(storage, { pricing: scenarioPricing, providers: [gxChannel('gx-main', fake.url)] });
  const gateway = await buildTestApp(t, store.driver, {}, { config });
  const other = await buildTestApp(t, store.driver, {}, { config });
  const token = await issueToken(t, gateway);
  const unlimited = await issueToken(t, gateway, { unlimited_quota: true });

  const clean = await postChat(gateway, token, chatBody('up-00000'));
  t.equal(clean.statusCode, 200);
  const cost = (await storedToken(gateway, token)).used_quota;
  t.ok(cost > 0, `one request costs ${cost} units`);
  t.equal((await postChat(other, token, chatBody('up-00000'))).statusCode, 200, 'the second instance serves the token too');
  t.equal((await postChat(gateway, unlimited, chatBody('up-00000'))).statusCode, 200, 'an unlimited token is served (and cached)');

  let phase: Phase = 'up';
  let running = true;
  let count = 0;
  const sent: Sent[] = [];
  const load = Array.from({ length: workers }, async () => {
    while (running) {
      const at = phase;
      count += 1;
      const response = await postChat(gateway, token, chatBody(`${at}-${String(count).padStart(5, '0')}`));
      sent.push({ phase: at, answeredIn: phase, response });
      // The memory-speed fake would otherwise let a handful of workers starve the timers.
      await new Promise((resolve) => setImmediate(resolve));
    }
  });
  const answeredIn = (wanted: Phase) => sent.filter((entry) => entry.phase === wanted).length;

  while (answeredIn('up') < 40) await sleep(10);
  phase = 'kl';
  await store.kill();
  phase = 'dn';

  const down = await readiness(gateway);
  t.equal(down.status, 503, `/readyz answers 503 while ${store.name} is down`);
  t.match(down.body, { storage: store.driver });
  t.not(down.body.status, 'ready');
  t.equal((await gateway.app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200, '/healthz still answers: the process serves');
  const unlimitedWhileDown = await postChat(gateway, unlimited, chatBody('unlimited'));
  t.equal(unlimitedWhileDown.statusCode, 503, 'an unlimited token is refused too: its usage could not be recorded');
  t.notOk(
    fake.requests.some((request) => JSON.stringify(request.json).includes('unlimited')),
    'and its request did not reach the upstream either',
  );
  const nativeWhileDown = await postNative(gateway, token, 'gx-2.5-pro:generateContent', nativeBody('dn-native'));
  t.equal(nativeWhileDown.statusCode, 503, 'a native request is refused with 503 too');
  t.match(nativeWhileDown.json(), { error: { code: 503, status: 'UNAVAILABLE' } }, 'in the native shape');
  while (answeredIn('dn') < 40) await sleep(10);

  phase = 'rc';
  await store.start();
  const recoveredWithin = Date.now() + 10_000;
  while (!sent.some((entry) => entry.phase === 'rc' && entry.response.statusCode === 200) && Date.now() < recoveredWithin) await sleep(20);
  running = false;
  await Promise.all(load);

  let ready = await readiness(gateway);
  while (ready.status !== 200 && Date.now() < recoveredWithin) {
    await sleep(50);
    ready = await readiness(gateway);
  }
  t.equal(ready.status, 200, '/readyz is 200 again without a restart');

  const statuses = (wanted: Phase) =>
    [...new Set(sent.filter((entry) => entry.phase === wanted && entry.answeredIn === wanted).map((entry) => entry.response.statusCode))].sort();
  t.same(statuses('up'), [200], 'before the kill every request is answered');
  t.same(statuses('dn'), [503], `while ${store.name} is down every request is refused with 503`);
  t.ok(
    sent.filter((entry) => entry.phase === 'dn').every((entry) => entry.response.json().error?.code === 'service_unavailable'),
    'as service_unavailable in the OpenAI shape',
  );
  t.ok(
    sent.every((entry) => [200, 503].includes(entry.response.statusCode)),
    `around the kill and the restart only 200 and 503 (${[...new Set(sent.map((entry) => entry.response.statusCode))].join(', ')})`,
  );
  const upstreamTags = fake.requests.map((request) => JSON.stringify(request.json));
  t.notOk(upstreamTags.some((text) => text.includes('dn-')), `no request sent while ${store.name} was down reached the upstream`);
  t.ok(sent.some((entry) => entry.phase === 'rc' && entry.response.statusCode === 200), 'requests are answered again after the restart');

  const after = await Promise.all(Array.from({ length: 10 }, () => postChat(gateway, token, chatBody('rc-00000'))));
  t.same([...new Set(after.map((response) => response.statusCode))], [200], 'a burst after the restart is served');

  // The clean request and the other instance's one, the load's, the burst's.
  const answered = 2 + after.length + sent.filter((entry) => entry.response.statusCode === 200).length;
  // A request whose settlement the store committed (Redis: and wrote to its append-only file)
  // just before the kill never heard the reply: its client got a 503, yet the charge stands.
  // Only the requests in flight at the kill can be in that state.
  const inFlightAtKill = sent.filter((entry) => (entry.phase === 'up' || entry.phase === 'kl') && entry.response.statusCode !== 200).length;
  const stored = await storedToken(gateway, token);
  t.ok(stored.used_quota >= answered * cost, `each of the ${answered} answered requests is billed (${stored.used_quota} units)`);
  t.ok(stored.used_quota <= (answered + inFlightAtKill) * cost, `and none twice: at most the ${inFlightAtKill} cut off by the kill are billed besides`);
  t.equal(stored.used_quota % cost, 0, 'in whole requests');
  t.ok(stored.remain_quota >= 0 && stored.remain_quota + stored.used_quota <= startingQuota, 'nothing was spent unchecked');

  t.test('the other instance still hears token changes after the restart', async (t) => {
    // It reconnects on its own backoff: wait until it says it is ready (and has heard its subscriber or listener come back).
    for (const until = Date.now() + 5000; Date.now() < until; await sleep(50)) {
      if ((await other.app.inject({ method: 'GET', url: '/readyz' })).statusCode === 200 && (await postChat(other, token, chatBody('rc-00000'))).statusCode === 200) break;
    }
    t.equal((await postChat(other, token, chatBody('rc-00000'))).statusCode, 200, 'it serves the token');
    await disable(gateway, token);
    let refused = 0;
    const until = Date.now() + 1000;
    while (refused !== 401 && Date.now() < until) {
      refused = (await postChat(other, token, chatBody('rc-00000'))).statusCode;
      if (refused !== 401) await sleep(20);
    }
    t.equal(refused, 401, 'a token disabled through one instance is refused by the other within a second');
  });
}
