import type { AddressInfo } from 'node:net';
import type { Test } from 'tap';
import { startFakeGxUpstream, type FakeGxUpstream } from '../fakes/gx/fake-gx-upstream.js';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../fakes/openai/fake-openai-upstream.js';
import { TokenService } from '../../core/tokens/token-service.js';
import { UserService } from '../../core/users/user-service.js';
import { buildTestApp } from '../helpers/build-test-app.js';

/** The key the fake gx upstream accepts and the gx channel sends. */
const upstreamKey = 'gx-compat-upstream-key';

/** A gateway listening on loopback in front of a fake gx upstream, and a key to call it with. */
export interface CompatGateway {
  /** The gateway's origin, `http://127.0.0.1:<port>`, without a trailing slash. */
  url: string;
  /** A full API key (`sk-...`) of an unlimited token. */
  apiKey: string;
  upstream: FakeGxUpstream;
}

/** More channels and prices besides the gx ones, for suites that need other families. */
export interface CompatGatewayExtras {
  providers?: Array<Record<string, unknown>>;
  pricing?: Record<string, Record<string, number>>;
  /** Other top-level config sections (`tasks`, `security`...); `providers` and `pricing` are built from the fields above. */
  config?: Record<string, unknown>;
}

/**
 * Starts the fake upstream and a gateway (memory store) with a gx channel (and `extras`),
 * listening on an ephemeral port so official clients talk real HTTP to it. Both close when
 * `t` ends.
 */
export async function startCompatGateway(t: Test, extras: CompatGatewayExtras = {}): Promise<CompatGateway> {
  const upstream = await startFakeGxUpstream({ apiKey: upstreamKey });
  t.teardown(() => upstream.close());
  const { app } = await buildTestApp(t, 'memory', {
    ...extras.config,
    providers: [
      {
        name: 'gx-main',
        plugin: 'gx',
        base_url: upstream.url,
        api_key: upstreamKey,
        models: ['gx-2.5-pro', 'gx-2.5-flash', 'text-embedding-004'],
      },
      ...(extras.providers ?? []),
    ],
    pricing: {
      'gx-2.5-pro': { input_per_mtok: 1.25, output_per_mtok: 10 },
      'gx-2.5-flash': { input_per_mtok: 0.3, output_per_mtok: 2.5 },
      'text-embedding-004': { per_call: 0.0001 },
      ...extras.pricing,
    },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const { user } = await app.gateway.resolve(UserService).create('compat');
  const tokens = app.gateway.resolve(TokenService);
  const token = await tokens.create(user.id, { name: 'compat', unlimited_quota: true });
  const key = await tokens.revealKey(user.id, token.id);
  return { url: `http://127.0.0.1:${port}`, apiKey: `sk-${key}`, upstream };
}

/**
 * The compat gateway with a gp channel too, serving `gp-5.4` on a fake OpenAI upstream, which
 * closes when `t` ends.
 */
export async function startGpCompatGateway(t: Test): Promise<{ gateway: CompatGateway; upstream: FakeOpenAiUpstream }> {
  const apiKey = 'gp-compat-upstream-key';
  const upstream = await startFakeOpenAiUpstream({ apiKey });
  t.teardown(() => upstream.close());
  const gateway = await startCompatGateway(t, {
    providers: [{ name: 'gp-main', plugin: 'gp', base_url: upstream.url, api_key: apiKey, models: ['gp-5.4'] }],
    pricing: { 'gp-5.4': { input_per_mtok: 1.25, output_per_mtok: 10 } },
  });
  return { gateway, upstream };
}
