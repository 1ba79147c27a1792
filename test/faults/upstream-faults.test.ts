import type { LightMyRequestResponse } from 'fastify';
import t, { type Test } from 'tap';
import { issueToken, lastAttempts, storedToken, waitForToken, type IssuedToken, type StoredToken } from '../helpers/gateway-scenario.js';
import type { TestApp } from '../helpers/build-test-app.js';
import { fakeOf, routesUnderFault, startFaultScene, type Dialect, type RouteUnderFault } from './fault-scene.js';
import { chunkings, cutFirstEventFor, garbageFor, oversizeAfterContentFor, oversizeEventFor, type FaultBehaviour } from './fault-behaviours.js';

// Every upstream fault of issue 7 on every model route it applies to. Before any content has
// reached the client a fault moves the request to the second channel, and the token pays
// exactly what a clean answer costs: the failed attempt is free. After content, a stream
// ends with an in-band error in the route's dialect and the token pays for what it got.

const startingQuota = 5_000_000;

// A stream that breaks before the upstream's usage arrived is billed on the gateway's own
// estimate: the prompt's bytes / 4 plus the model text sent / 4, capped at the output the
// request reserved for. The fake counts a token per word, so the estimate may be somewhat
// above its count, but never near the envelopes' bytes (20 to 100 times a whole answer).
const estimateMargin = 1.5;

/** A fault that strikes before anything reached the client. */
interface EarlyFault {
  name: string;
  behaviour(route: RouteUnderFault): FaultBehaviour | undefined;
  /** The upstream had answered 2xx when it struck. */
  afterHeaders?: boolean;
  /** For a fault after content: model text the client must have got before the error. */
  delivered?: string;
}

const earlyFaults: EarlyFault[] = [
  { name: 'an HTTP 500', behaviour: () => ({ error: 500 }) },
  { name: 'an HTTP 503', behaviour: () => ({ error: 503 }) },
  { name: 'an HTTP 429', behaviour: () => ({ error: 429 }) },
  { name: 'a connection reset before the headers', behaviour: () => ({ resetBeforeHeaders: true }) },
  { name: 'a connection reset right after the headers', behaviour: () => ({ resetAfterChunks: 0 }), afterHeaders: true },
  { name: 'no headers within first_byte_ms', behaviour: () => ({ stallBeforeHeadersMs: 5000 }) },
  { name: 'silence after the headers for longer than idle_ms', behaviour: () => ({ stallAfterChunks: 0 }), afterHeaders: true },
  { name: 'an answer that is not JSON', behaviour: garbageFor, afterHeaders: true },
  { name: 'a stream cut off in its first event', behaviour: cutFirstEventFor, afterHeaders: true },
];

/** A fault that strikes after content reached the client (stream routes only). */
const lateFaults: EarlyFault[] = [
  { name: 'a connection reset after content', behaviour: (route) => ({ resetAfterChunks: route.chunksWithContent }) },
  { name: 'silence after content for longer than idle_ms', behaviour: (route) => ({ stallAfterChunks: route.chunksWithContent }) },
  { name: 'a stream cut in the middle of its last event', behaviour: () => ({ truncateSse: true }) },
  // The stream commits at its first content, whatever follows it in the same read: the same
  // outcome however the upstream's bytes were chunked.
  ...chunkings.map((chunking) => ({
    name: `an SSE event over streaming.max_event_bytes after content, ${chunking}`,
    behaviour: (route: RouteUnderFault) => oversizeAfterContentFor(route, chunking),
    delivered: 'partial',
  })),
];

/**
 * The token after the request settled: streams and relayed bytes settle once the body is
 * over. Polled until it has, for as long as a loaded machine may take; a settled token ends the wait.
 */
async function settled(gateway: TestApp, token: IssuedToken): Promise<StoredToken> {
  return waitForToken(gateway, token, (stored) => stored.used_quota > 0, 10_000);
}

/**
 * What one request cost the token: the units charged, or for a task the units held until it
 * finishes (`used_quota` stays 0 until then).
 */
async function costOf(gateway: TestApp, token: IssuedToken, route: RouteUnderFault): Promise<number> {
  if (route.held === true) return startingQuota - (await storedToken(gateway, token)).remain_quota;
  return (await settled(gateway, token)).used_quota;
}

/** The token paid `cost` for one request, `remain_quota` and `used_quota` moving together. */
async function assertBilled(t: Test, gateway: TestApp, token: IssuedToken, route: RouteUnderFault, cost: number, message: string): Promise<void> {
  if (route.held === true) t.match(await storedToken(gateway, token), { used_quota: 0, remain_quota: startingQuota - cost }, `${message} (held until the task ends)`);
  else t.match(await settled(gateway, token), { used_quota: cost, remain_quota: startingQuota - cost }, message);
}

function assertDialectError(t: Test, response: LightMyRequestResponse, dialect: Dialect): void {
  const body = response.json();
  t.same(Object.keys(body), ['error'], 'the body is one error object');
  if (dialect === 'openai') {
    t.same(Object.keys(body.error).sort(), ['code', 'message', 'param', 'type'], 'in the OpenAI shape');
    t.equal(body.error.type, 'server_error');
  } else if (dialect === 'native') {
    t.same(Object.keys(body.error).sort(), ['code', 'message', 'status'], 'in the native shape');
    t.equal(body.error.code, response.statusCode);
  } else {
    t.same(Object.keys(body.error).sort(), ['code', 'message', 'type'], "in the images table's shape");
    t.equal(body.error.code, 'bad_response');
  }
  t.match(body.error.message, /\S/, 'with a message');
}

function assertInBandError(t: Test, route: RouteUnderFault, error: Record<string, unknown> | undefined): void {
  t.ok(error, 'the stream ends with an in-band error');
  if (route.dialect === 'native') t.match(error, { error: { code: Number, message: String, status: String } }, 'in the native shape');
  else if (route.stream === 'responses') t.match(error, { type: 'error', sequence_number: Number, error: { message: String, type: 'server_error', code: String } }, 'as a Responses error event');
  else t.match(error, { error: { message: String, type: 'server_error', code: String, param: null } }, 'in the OpenAI shape');
}

// Each route gets its own fakes and gateway so the routes run side by side: the stalls wait
// for undici's timers, which fire on a half-second tick.
t.test('upstream faults on every model route', { jobs: routesUnderFault.length }, async (t) => {
  for (const route of routesUnderFault) {
    t.test(route.name, async (t) => {
      const scene = await startFaultScene(t);
      const { gateway } = scene;
      const first = fakeOf(scene, route, 'first');
      const second = fakeOf(scene, route, 'second');
      const baselineToken = await issueToken(t, gateway);
      const clean = await route.send(gateway, baselineToken);
      t.equal(clean.statusCode, 200, 'a clean request is answered');
      const answer = route.summary(clean);
      const cost = await costOf(gateway, baselineToken, route);
      t.ok(cost > 0, `a clean answer costs ${cost} units`);

      for (const fault of earlyFaults) {
        const behaviour = fault.behaviour(route);
        if (behaviour === undefined) continue;
        if (fault.afterHeaders === true && route.committedAtHeaders === true) {
          t.test(`${fault.name}: a clean error, not a second start elsewhere, and the hold is given back`, async (t) => {
            const token = await issueToken(t, gateway);
            const secondRequests = second.requests.length;
            first.next(behaviour);
            const response = await route.send(gateway, token);
            t.ok(response.statusCode === 502 || response.statusCode === 504, `answers ${response.statusCode}`);
            assertDialectError(t, response, route.dialect);
            t.equal(second.requests.length, secondRequests, 'no other channel is asked');
            t.match(await storedToken(gateway, token), { used_quota: 0, remain_quota: startingQuota }, 'the hold is refunded');
          });
          continue;
        }
        t.test(`${fault.name}: the second channel answers and the token pays one answer`, async (t) => {
          const token = await issueToken(t, gateway);
          first.next(behaviour);
          const response = await route.send(gateway, token);
          t.equal(response.statusCode, 200, 'the client gets an answer');
          t.equal(route.summary(response), answer, "the second channel's whole answer");
          t.same(lastAttempts(gateway), [`${route.channels}-first:failed`, `${route.channels}-second:success`], 'the first attempt failed, the second answered');
          await assertBilled(t, gateway, token, route, cost, 'billed exactly one clean answer');
        });
      }

      t.test('a slow first byte within first_byte_ms is waited for, not failed over', async (t) => {
        const token = await issueToken(t, gateway);
        first.next({ stallBeforeHeadersMs: 60, chunkDelayMs: route.stream === undefined ? undefined : 20 });
        const response = await route.send(gateway, token);
        t.equal(route.summary(response), answer, "the first channel's whole answer");
        t.same(lastAttempts(gateway), [`${route.channels}-first:success`]);
        await assertBilled(t, gateway, token, route, cost, 'billed one answer');
      });

      t.test('when every channel fails the client gets a clean error in its dialect and pays nothing', async (t) => {
        const token = await issueToken(t, gateway);
        first.next({ error: 503 });
        second.next({ resetBeforeHeaders: true });
        const response = await route.send(gateway, token);
        t.equal(response.statusCode, route.dialect === 'images' ? 503 : 502);
        assertDialectError(t, response, route.dialect);
        t.match(await storedToken(gateway, token), { used_quota: 0, remain_quota: startingQuota }, 'the hold is refunded');
      });

      for (const chunking of chunkings) {
        const oversize = oversizeEventFor(route, chunking);
        if (oversize === undefined) continue;
        // The same model would most likely send the same event again: a clean error, not a retry.
        t.test(`an SSE event over streaming.max_event_bytes before content, ${chunking}, is a clean error and costs nothing`, async (t) => {
          const token = await issueToken(t, gateway);
          const secondRequests = second.requests.length;
          first.next(oversize);
          const response = await route.send(gateway, token);
          t.equal(response.statusCode, 502);
          assertDialectError(t, response, route.dialect);
          if (route.dialect !== 'native') t.equal(response.json().error.code, 'upstream_event_too_large');
          t.equal(second.requests.length, secondRequests, 'no other channel is asked');
          t.match(await storedToken(gateway, token), { used_quota: 0, remain_quota: startingQuota }, 'the hold is refunded');
        });
      }

      if (route.bytes === true) {
        // Raw audio has no in-band error: the client's connection is cut, so it cannot take
        // the truncated audio for a whole one. The upstream synthesized (and bills) every
        // character, and the client has part of the audio: the characters are billed.
        t.test('a connection reset in the middle of the audio cuts the client off; the characters are billed once', async (t) => {
          const token = await issueToken(t, gateway);
          const secondRequests = second.requests.length;
          first.next({ resetAfterChunks: 1 });
          await t.rejects(route.send(gateway, token), { code: 'LIGHT_ECONNRESET' }, 'the response is destroyed before its end');
          t.equal(second.requests.length, secondRequests, 'no silent switch to another channel');
          t.match(await settled(gateway, token), { used_quota: cost, remain_quota: startingQuota - cost });
        });
      }

      if (route.stream === undefined) return;
      for (const fault of lateFaults) {
        const behaviour = fault.behaviour(route);
        if (behaviour === undefined) continue;
        t.test(`${fault.name}: the stream ends with an in-band error and the token pays for what it got`, async (t) => {
          const token = await issueToken(t, gateway);
          const secondRequests = second.requests.length;
          first.next(behaviour);
          const response = await route.send(gateway, token);
          t.equal(response.statusCode, 200, 'the stream had started');
          if (fault.delivered !== undefined) t.match(response.payload, fault.delivered, 'the content before the fault reached the client');
          assertInBandError(t, route, route.inBandError?.(response));
          t.equal(second.requests.length, secondRequests, 'no silent switch to another channel');
          const stored = await settled(gateway, token);
          t.ok(stored.used_quota > 0, `billed ${stored.used_quota} units for the partial answer`);
          t.ok(stored.used_quota <= cost * estimateMargin, `about a whole answer's ${cost} units at most (billed ${stored.used_quota})`);
          t.equal(stored.used_quota + stored.remain_quota, startingQuota, 'the rest of the hold is refunded');
        });
      }
    });
  }
});
