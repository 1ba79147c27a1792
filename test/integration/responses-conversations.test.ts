// Responses conversations on a gx model, through the gateway on SQLite (the default store):
// gx keeps no conversation, so the gateway stores each translated answer's and expands a
// follow-up's `previous_response_id` with it. The store's writes are slowed (or made to fail)
// by a wrapper around the one keyv namespace the conversations live in, as a busy Redis or
// PostgreSQL would be: a client such as Codex sends its follow-up the moment it reads
// `response.completed`, so that event must not reach it before the conversation is stored.
import type { LightMyRequestResponse } from 'fastify';
import t, { type Test } from 'tap';
import { createStoreBackend } from '../../core/store/create-store-backend.js';
import type { StoreBackend } from '../../core/store/store-backend.js';
import { SseSplitter } from '../../core/streaming/sse-splitter.js';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { gxChannel, issueToken, scenarioPricing, startGx, type IssuedToken } from '../helpers/gateway-scenario.js';
import { storageFor, testConfig } from '../helpers/test-config.js';

const model = 'gx-2.5-pro';

/** How the conversations' store writes behave: each one waits this long, and fails when told to; the TTL of each is kept. */
interface SlowWrites {
  delayMilliseconds: number;
  fail: boolean;
  ttls?: (number | undefined)[];
}

/** The affinity TTL the gateways here are configured with: conversations are kept that long. */
const affinityTtl = 2 * 3_600_000;

/** A SQLite store whose conversation records are written slowly (or not at all), and the gateway on it. */
async function gatewayWithSlowConversationWrites(t: Test, writes: SlowWrites): Promise<{ gateway: TestApp; upstream: Awaited<ReturnType<typeof startGx>> }> {
  const upstream = await startGx(t);
  const config = testConfig(storageFor(t, 'sqlite'), {
    pricing: scenarioPricing,
    providers: [gxChannel('gx-main', upstream.url)],
    routing: { affinity: { ttl_ms: affinityTtl } },
  });
  const backend: StoreBackend = await createStoreBackend(config.storage);
  // keyv() gives the same instance for the same namespace: the one the gateway keeps conversations in.
  const records = backend.keyv<unknown>('responses-conversations');
  const write = records.set.bind(records);
  records.set = (async (...args: Parameters<typeof write>) => {
    writes.ttls?.push(args[2]);
    await new Promise((resolve) => setTimeout(resolve, writes.delayMilliseconds));
    if (writes.fail) throw new Error('the store refused the write');
    return write(...args);
  }) as typeof records.set;
  const gateway = await buildTestApp(t, 'sqlite', {}, { config, backend });
  // Registered after the app's own teardown, so the store closes once the app has.
  t.teardown(() => backend.close());
  return { gateway, upstream };
}

function postResponses(gateway: TestApp, token: IssuedToken, body: Record<string, unknown>): Promise<LightMyRequestResponse> {
  return gateway.app.inject({ method: 'POST', url: '/v1/responses', headers: { ...token.bearer, 'content-type': 'application/json' }, payload: JSON.stringify({ model, ...body }) });
}

/** The events of a Responses stream, by name, with their parsed data. */
function streamEvents(body: string): { event: string | undefined; data: Record<string, any> }[] {
  const splitter = new SseSplitter();
  return [...splitter.push(Buffer.from(body)), ...splitter.end()].map((frame) => ({ event: frame.event, data: JSON.parse(frame.data) as Record<string, any> }));
}

/** The texts of every part the upstream received, in order: the conversation as gx was sent it. */
const upstreamTexts = (upstream: Awaited<ReturnType<typeof startGx>>) =>
  (upstream.requests.at(-1)!.json as { contents: { role: string; parts: { text?: string }[] }[] }).contents.flatMap((content) => content.parts.map((part) => `${content.role}: ${part.text}`));

t.test('a follow-up sent as soon as response.completed arrives continues the stream, however slowly the store writes', async (t) => {
  const ttls: (number | undefined)[] = [];
  const { gateway, upstream } = await gatewayWithSlowConversationWrites(t, { delayMilliseconds: 400, fail: false, ttls });
  const token = await issueToken(t, gateway);

  const first = await postResponses(gateway, token, { input: 'my name is Ada', stream: true });
  t.equal(first.statusCode, 200);
  const events = streamEvents(first.body);
  const completed = events.at(-1)!;
  t.equal(completed.event, 'response.completed', 'the stream ends with the completed response');
  const id = completed.data.response.id as string;

  // The client has read response.completed: it sends the follow-up at once, as Codex does.
  const followUp = await postResponses(gateway, token, { input: 'what is my name?', previous_response_id: id });
  t.equal(followUp.statusCode, 200, 'the follow-up finds the conversation');
  t.equal(followUp.json().previous_response_id, id);
  t.strictSame(upstreamTexts(upstream), ['user: my name is Ada', 'model: echo: my name is Ada', 'user: what is my name?'], 'the upstream got the whole conversation');
  t.strictSame(ttls, [affinityTtl, affinityTtl], 'each answer is kept for the affinity TTL');

  const stranger = await issueToken(t, gateway);
  const foreign = await postResponses(gateway, stranger, { input: 'what is her name?', previous_response_id: id });
  t.equal(foreign.statusCode, 404, "another user's key finds nothing under the id");
  t.equal(foreign.json().error.code, 'previous_response_not_found');
});

t.test('a conversation the store fails to keep still ends its stream with response.completed, and the failure is logged without any key', async (t) => {
  const { gateway } = await gatewayWithSlowConversationWrites(t, { delayMilliseconds: 0, fail: true });
  const token = await issueToken(t, gateway);

  const first = await postResponses(gateway, token, { input: 'my name is Ada', stream: true });
  t.equal(first.statusCode, 200);
  const events = streamEvents(first.body);
  t.equal(events.at(-1)!.event, 'response.completed', 'the answer is not lost');
  t.match(events.map((event) => event.data.delta).join(''), 'echo: my name is Ada');

  const failures = gateway.logLines.filter((line) => line.includes('the gateway failed to keep the conversation of a translated response'));
  t.equal(failures.length, 1, 'the failed write is logged once');
  t.notOk(failures[0]!.includes(token.key), 'without the API key');
  t.notOk(failures[0]!.includes('gx-upstream-key'), 'without the channel key');

  const followUp = await postResponses(gateway, token, { input: 'what is my name?', previous_response_id: events.at(-1)!.data.response.id });
  t.equal(followUp.statusCode, 404, 'nothing was kept to continue from');
  t.equal(followUp.json().error.code, 'previous_response_not_found');
});
