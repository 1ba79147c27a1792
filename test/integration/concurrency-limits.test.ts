import t, { type Test } from 'tap';
import type { FakeGxUpstream } from '../fakes/gx/fake-gx-upstream.js';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { chatBody, gxChannel, issueToken, scenarioPricing, startGx, type IssuedToken } from '../helpers/gateway-scenario.js';
import { storageFor, testConfig, type StorageDriver } from '../helpers/test-config.js';

// rate_limits.tokens.max_concurrent: a token's requests in flight, counted across two gateway
// instances on one store, each request one slot from its admission to its end.

const limit = 3;
const extra = 2;

/** A chat stream through `base`: its status and code once its headers (or its refusal) came, and how to end it from the client. */
interface OpenedStream {
  status: number;
  retryAfter: string | null;
  code?: string;
  message?: string;
  /** Reads the rest of the stream to its end. */
  finish(): Promise<string>;
  /** Leaves, as a client that closes its connection does. */
  abort(): void;
}

async function openStream(base: string, token: IssuedToken): Promise<OpenedStream> {
  const controller = new AbortController();
  const answer = await fetch(`${base}/v1/chat/completions`, {
    method: 'POST',
    headers: { ...token.bearer, 'content-type': 'application/json' },
    body: JSON.stringify(chatBody('in flight', { stream: true })),
    signal: controller.signal,
  });
  const opened: OpenedStream = { status: answer.status, retryAfter: answer.headers.get('retry-after'), finish: () => answer.text(), abort: () => controller.abort() };
  if (answer.status !== 200) {
    const error = ((await answer.json()) as { error: { code: string; message: string } }).error;
    return { ...opened, code: error.code, message: error.message };
  }
  return opened;
}

/** Opens `count` streams the upstream holds after their first text (`behaviour` per stream), alternating between the instances, one after another. */
async function openHeldStreams(fake: FakeGxUpstream, bases: readonly string[], token: IssuedToken, count: number, behaviours: Behaviours): Promise<OpenedStream[]> {
  const opened: OpenedStream[] = [];
  for (let index = 0; index < count; index += 1) {
    for (const behaviour of behaviours(index)) fake.next(behaviour);
    opened.push(await openStream(bases[index % bases.length] as string, token));
  }
  return opened;
}

type Behaviours = (index: number) => Array<Parameters<FakeGxUpstream['next']>[0]>;
const heldOpen: Behaviours = () => [{ stallAfterChunks: 2 }];

/**
 * Asserts that `limit` streams are admitted and every one past them is refused with the
 * concurrency 429. The slots of requests that just ended are freed a moment after the client
 * saw the end, so a first round that finds one still taken ends its streams and tries again.
 */
async function exactlyTheLimitIsAdmitted(t: Test, fake: FakeGxUpstream, bases: readonly string[], token: IssuedToken, behaviours: Behaviours = heldOpen): Promise<OpenedStream[]> {
  let admitted: OpenedStream[] = [];
  for (let tries = 0; tries < 100; tries += 1) {
    fake.reset();
    admitted = await openHeldStreams(fake, bases, token, limit, behaviours);
    if (admitted.every((stream) => stream.status === 200)) break;
    for (const stream of admitted) stream.abort();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  t.same(admitted.map((stream) => stream.status), Array(limit).fill(200), `${limit} are admitted`);
  fake.reset();
  const refused = await Promise.all(Array.from({ length: extra }, (_, index) => openStream(bases[index % bases.length] as string, token)));
  for (const stream of refused) {
    t.match(stream, { status: 429, code: 'too_many_concurrent_requests', retryAfter: '1' }, 'one over the limit gets 429 with Retry-After');
    t.match(stream.message, /this API key allows 3 at once \(rate_limits\.tokens\.max_concurrent\)/, 'the message names the limit and the key that sets it');
  }
  return admitted;
}

for (const driver of ['sqlite', 'redis', 'postgres'] as const satisfies readonly StorageDriver[]) {
  t.test(`max_concurrent per token across two instances on ${driver}`, async (t) => {
    const fake = await startGx(t);
    const config = testConfig(storageFor(t, driver), {
      pricing: scenarioPricing,
      providers: [gxChannel('gx-main', fake.url, { priority: 10 }), gxChannel('gx-backup', fake.url)],
      rate_limits: { tokens: { max_concurrent: limit } },
    });
    // Two gateways on one store, each with a connection of its own, as on two machines.
    const instances: TestApp[] = [await buildTestApp(t, driver, {}, { config }), await buildTestApp(t, driver, {}, { config })];
    const bases = await Promise.all(instances.map((instance) => instance.app.listen({ port: 0, host: '127.0.0.1' })));
    const token = await issueToken(t, instances[0] as TestApp);

    t.test('JSON answers take no slot once answered', async (t) => {
      fake.reset();
      for (let index = 0; index < limit * 3; index += 1) {
        const answer = await fetch(`${bases[index % 2]}/v1/chat/completions`, { method: 'POST', headers: { ...token.bearer, 'content-type': 'application/json' }, body: JSON.stringify(chatBody('json')) });
        t.equal(answer.status, 200);
        await answer.text();
      }
      const again = await exactlyTheLimitIsAdmitted(t, fake, bases, token);
      for (const stream of again) stream.abort();
    });

    t.test('ended by the client: every slot is free again', async (t) => {
      const admitted = await exactlyTheLimitIsAdmitted(t, fake, bases, token);
      for (const stream of admitted) stream.abort();
      const again = await exactlyTheLimitIsAdmitted(t, fake, bases, token);
      for (const stream of again) stream.abort();
    });

    t.test('ended normally: every slot is free again', async (t) => {
      const admitted = await exactlyTheLimitIsAdmitted(t, fake, bases, token, () => [{ stallAfterChunks: 2, stallMs: 400 }]);
      t.ok((await Promise.all(admitted.map((stream) => stream.finish()))).every((body) => body.includes('[DONE]')), 'each stream ran to its end');
      const again = await exactlyTheLimitIsAdmitted(t, fake, bases, token);
      for (const stream of again) stream.abort();
    });

    t.test('failed over to another channel: one slot per request, not per attempt, and free again at its end', async (t) => {
      const admitted = await exactlyTheLimitIsAdmitted(t, fake, bases, token, () => [{ error: 503 }, { stallAfterChunks: 2 }]);
      for (const stream of admitted) stream.abort();
      const again = await exactlyTheLimitIsAdmitted(t, fake, bases, token);
      for (const stream of again) stream.abort();
    });

  });
}

t.test("max_concurrent per group counts every key of the group together, and names the group's key", async (t) => {
  const fake = await startGx(t);
  const gateway = await buildTestApp(t, 'memory', { pricing: scenarioPricing, providers: [gxChannel('gx-main', fake.url)], rate_limits: { groups: { default: { max_concurrent: 2 } } } });
  const base = await gateway.app.listen({ port: 0, host: '127.0.0.1' });
  const [first, second] = [await issueToken(t, gateway), await issueToken(t, gateway)] as [IssuedToken, IssuedToken];
  const admitted = [...(await openHeldStreams(fake, [base], first, 1, heldOpen)), ...(await openHeldStreams(fake, [base], second, 1, heldOpen))];
  t.same(admitted.map((stream) => stream.status), [200, 200]);
  fake.reset();
  const refused = await openStream(base, first);
  t.match(refused, { status: 429, code: 'too_many_concurrent_requests', message: /group "default" allows 2 at once \(rate_limits\.groups\.default\.max_concurrent\)/ });
  for (const stream of admitted) stream.abort();
});

t.test('without max_concurrent, a token holds as many streams as it opens', async (t) => {
  const fake = await startGx(t);
  const gateway = await buildTestApp(t, 'memory', { pricing: scenarioPricing, providers: [gxChannel('gx-main', fake.url)] });
  const base = await gateway.app.listen({ port: 0, host: '127.0.0.1' });
  const token = await issueToken(t, gateway);
  const streams = await openHeldStreams(fake, [base], token, 20, heldOpen);
  t.same(streams.map((stream) => stream.status), Array(20).fill(200));
  for (const stream of streams) stream.abort();
});
