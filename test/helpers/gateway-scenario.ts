import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Test } from 'tap';
import { SseSplitter } from '../../core/streaming/sse-splitter.js';
import { startFakeGxUpstream, type FakeGxUpstream } from '../fakes/gx/fake-gx-upstream.js';
import { buildTestApp, type TestApp, type TestAppOptions } from './build-test-app.js';

/** The key every fake gx upstream accepts and every gx channel in these scenarios sends. */
export const gxUpstreamKey = 'gx-upstream-key';

/** Prices for the models the scenarios use, in USD per million tokens. */
export const scenarioPricing = {
  'gx-2.5-pro*': { input_per_mtok: 1.25, output_per_mtok: 10 },
  'gx-latest': { input_per_mtok: 1.25, output_per_mtok: 10 },
  'gx-3*': { input_per_mtok: 2, output_per_mtok: 12 },
  'gx-2.5-flash-image': { per_image: 0.04 },
  'gx-2.5-flash-tts': { input_per_mtok: 0.5, output_per_mtok: 10 },
  'embed-latest': { per_call: 0.0001 },
};

/**
 * {@link scenarioPricing} and the OpenAI-style families the fault tests run together. In
 * quota units per USD: gp 1 unit per input token and 4 per output token; gi-2 20000 per
 * image; tts-1 7.5 per character; stt-1 50 per second; sr-2 50000 per second.
 */
export const familyPricing = {
  ...scenarioPricing,
  'gp-*': { input_per_mtok: 2, output_per_mtok: 8 },
  'gi-2': { per_image: 0.04 },
  'tts-1': { per_1k_chars: 0.015 },
  'stt-1': { per_minute: 0.006 },
  'sr-2': { per_second: 0.1 },
};

/** A builder of channels on one fake OpenAI-style upstream: name, plugin, models and an optional `model_map`. */
export const openAiChannelsOn =
  (baseUrl: string, apiKey: string) =>
  (name: string, plugin: string, models: string[], modelMap: Record<string, string> = {}) => ({ name, plugin, base_url: baseUrl, api_key: apiKey, models, model_map: modelMap });

/** Starts a fake gx upstream that is closed when the test ends. */
export async function startGx(t: Test): Promise<FakeGxUpstream> {
  const fake = await startFakeGxUpstream({ apiKey: gxUpstreamKey });
  t.teardown(() => fake.close());
  return fake;
}

/** One `providers[]` entry for the gx plugin at `baseUrl`; `fields` replace the defaults. */
export function gxChannel(name: string, baseUrl: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, plugin: 'gx', base_url: baseUrl, api_key: gxUpstreamKey, models: ['gx-2.5-pro'], groups: ['default'], ...fields };
}

/** The gateway on the memory store with {@link scenarioPricing}; `overrides` replace top-level config sections. */
export function scenarioGateway(t: Test, overrides: Record<string, unknown>, options: TestAppOptions = {}): Promise<TestApp> {
  return buildTestApp(t, 'memory', { pricing: scenarioPricing, ...overrides }, options);
}

/** A token made through the management API, with its revealed key. */
export interface IssuedToken {
  id: number;
  key: string;
  loginToken: string;
  /** `Authorization: Bearer sk-<key>` */
  bearer: { authorization: string };
}

let userCount = 0;

/** Issues a token the way a client does: sign in as a fresh user, create, find its id, reveal the key. */
export async function issueToken(t: Test, gateway: TestApp, fields: Record<string, unknown> = {}): Promise<IssuedToken> {
  userCount += 1;
  const loginToken = await gateway.createUser(`scenario-user-${userCount}`);
  const created = await gateway.asUser(loginToken, { method: 'POST', url: '/api/token/', payload: { name: 'scenario', remain_quota: 5_000_000, ...fields } });
  t.same(created.json(), { success: true, message: '' }, 'the token is created');
  const listed = await gateway.asUser(loginToken, { method: 'GET', url: '/api/token/?size=1' });
  const id = listed.json().data.items[0].id as number;
  const revealed = await gateway.asUser(loginToken, { method: 'POST', url: `/api/token/${id}/key` });
  const key = revealed.json().data.key as string;
  return { id, key, loginToken, bearer: { authorization: `Bearer sk-${key}` } };
}

/** The token object as GET /api/token/:id shows it. */
export interface StoredToken {
  status: number;
  remain_quota: number;
  used_quota: number;
  unlimited_quota: boolean;
  [field: string]: unknown;
}

export async function storedToken(gateway: TestApp, token: IssuedToken): Promise<StoredToken> {
  const response = await gateway.asUser(token.loginToken, { method: 'GET', url: `/api/token/${token.id}` });
  return response.json().data as StoredToken;
}

/** Polls the token until `done` holds (settlement after a stream is asynchronous), or gives up after `milliseconds`. */
export async function waitForToken(gateway: TestApp, token: IssuedToken, done: (stored: StoredToken) => boolean, milliseconds = 3000): Promise<StoredToken> {
  const until = Date.now() + milliseconds;
  for (;;) {
    const stored = await storedToken(gateway, token);
    if (done(stored) || Date.now() > until) return stored;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A one-message chat request body. */
export const chatBody = (text: string, fields: Record<string, unknown> = {}) => ({
  model: 'gx-2.5-pro',
  messages: [{ role: 'user', content: text }],
  ...fields,
});

/** A one-turn native generate request body. */
export const nativeBody = (text: string, fields: Record<string, unknown> = {}) => ({ contents: [{ role: 'user', parts: [{ text }] }], ...fields });

/** POST /v1/chat/completions as the token. */
export function postChat(gateway: TestApp, token: IssuedToken, body: unknown, options: Omit<InjectOptions, 'url' | 'method'> = {}): Promise<LightMyRequestResponse> {
  return gateway.app.inject({
    method: 'POST',
    url: '/v1/chat/completions',
    ...options,
    headers: { ...token.bearer, 'content-type': 'application/json', ...options.headers },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** POST /v1beta/models/<call> as the token (Bearer unless `headers` say otherwise). */
export function postNative(
  gateway: TestApp,
  token: IssuedToken | undefined,
  call: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return gateway.app.inject({
    method: 'POST',
    url: `/v1beta/models/${call}`,
    headers: { ...(token === undefined ? {} : token.bearer), 'content-type': 'application/json', ...headers },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** The `data:` payloads of an SSE body, in order (comments such as `: ping` are dropped). */
export function sseData(body: string | Buffer): string[] {
  const splitter = new SseSplitter();
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  return [...splitter.push(bytes), ...splitter.end()].map((frame) => frame.data);
}

/** The last request log line ("model request answered" or "model request failed"), in the order written. */
export function lastRequestRecord(gateway: TestApp): Record<string, any> | undefined {
  return gateway.logLines
    .flatMap((line) => line.split('\n'))
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, any>)
    .filter((record) => record.msg === 'model request answered' || record.msg === 'model request failed')
    .at(-1);
}

/** The attempts of the last request log line, as `channel:outcome`. */
export function lastAttempts(gateway: TestApp): string[] {
  const attempts = (lastRequestRecord(gateway)?.attempts ?? []) as Array<{ channel: string; outcome: string }>;
  return attempts.map((attempt) => `${attempt.channel}:${attempt.outcome}`);
}

/** A loopback port nothing listens on: bound, then released. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A TCP relay in front of an upstream that tells when the gateway closes a connection. */
export interface TcpRelay {
  /** `http://127.0.0.1:<port>`, to use as a channel's base_url. */
  url: string;
  /** Connections the gateway opened. */
  opened: number;
  /** Connections the gateway closed while the upstream still held them open (the relay then closes its side to the upstream too). */
  closed: number;
  /** Resolves once `count` connections have been closed by the gateway, or rejects after `milliseconds`. */
  waitForClosed(count: number, milliseconds?: number): Promise<void>;
}

/** Starts a {@link TcpRelay} to `target` (an `http://host:port` URL), closed when the test ends. */
export async function startTcpRelay(t: Test, target: string): Promise<TcpRelay> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  const waiters: Array<() => boolean> = [];
  const relay: TcpRelay = {
    url: '',
    opened: 0,
    closed: 0,
    waitForClosed(count, milliseconds = 3000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`only ${relay.closed} of ${count} connections closed`)), milliseconds);
        const check = () => {
          if (relay.closed < count) return false;
          clearTimeout(timer);
          resolve();
          return true;
        };
        if (!check()) waiters.push(check);
      });
    },
  };
  const server = createServer((client) => {
    relay.opened += 1;
    const upstream = connect(Number(port), hostname);
    let upstreamGone = false;
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => {
      if (upstreamGone) return;
      relay.closed += 1;
      upstream.destroy();
      for (const waiter of [...waiters]) if (waiter()) waiters.splice(waiters.indexOf(waiter), 1);
    });
    upstream.on('close', () => {
      upstreamGone = true;
      client.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  relay.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return relay;
}

/** The text a chat completion stream carried: every `delta.content` joined. */
export function streamedText(body: string): string {
  return sseData(body)
    .filter((data) => data !== '[DONE]')
    .map((data) => JSON.parse(data) as { choices?: Array<{ delta?: { content?: string } }> })
    .map((chunk) => chunk.choices?.[0]?.delta?.content ?? '')
    .join('');
}
