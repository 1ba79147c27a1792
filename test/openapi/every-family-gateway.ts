import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Test } from 'tap';
import { demoChannels } from '../../demo/demo-config.js';
import { startDemoUpstreams, type DemoUpstreams } from '../../demo/demo-upstreams.js';
import { TokenService } from '../../core/tokens/token-service.js';
import { UserService } from '../../core/users/user-service.js';
import { sseData } from '../helpers/gateway-scenario.js';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { testEncryptionKey } from '../helpers/test-config.js';

/** A gateway with a channel for every model family, each on its vendor's fake, and a key to call it with. */
export interface EveryFamilyGateway {
  gateway: TestApp;
  upstreams: DemoUpstreams;
  /** `Authorization: Bearer sk-…` of an unlimited token. */
  bearer: { authorization: string };
  /** POSTs JSON to `url` with the key. */
  postJson(url: string, body: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** POSTs a multipart form to `url` with the key. */
  postForm(url: string, form: FormData): Promise<LightMyRequestResponse>;
  /** Any request with the key. */
  call(options: InjectOptions): Promise<LightMyRequestResponse>;
}

/**
 * Starts the demo's fakes (gx, OpenAI, Ark, DashScope, Veo) and a gateway on the memory store
 * with the demo's channels, one per model family with the spec's model ids, priced by the
 * shipped catalog. Video tasks are asked about on every poll, so a fake's lifecycle moves on
 * with each; media on loopback (the fakes' result images) may be fetched. Everything closes
 * when `t` ends.
 */
export async function startEveryFamilyGateway(t: Test): Promise<EveryFamilyGateway> {
  const upstreams = await startDemoUpstreams();
  t.teardown(() => upstreams.close());
  const gateway = await buildTestApp(t, 'memory', {
    providers: demoChannels(upstreams),
    // The fakes serve result images and videos on loopback, which the media guard refuses by default.
    security: { encryption_key: testEncryptionKey, media: { allow_private_networks: true } },
    tasks: { min_poll_interval_ms: 0, background_poll_ms: 3_600_000 },
  });
  const { user } = await gateway.app.gateway.resolve(UserService).create('openapi');
  const tokens = gateway.app.gateway.resolve(TokenService);
  const token = await tokens.create(user.id, { name: 'openapi', unlimited_quota: true });
  const bearer = { authorization: `Bearer sk-${await tokens.revealKey(user.id, token.id)}` };
  const call = (options: InjectOptions) => gateway.app.inject({ ...options, headers: { ...bearer, ...options.headers } });
  return {
    gateway,
    upstreams,
    bearer,
    call,
    postJson: (url, body, headers = {}) => call({ method: 'POST', url, headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify(body) }),
    async postForm(url, form) {
      const serialized = new Response(form);
      const payload = Buffer.from(await serialized.arrayBuffer());
      return call({ method: 'POST', url, headers: { 'content-type': serialized.headers.get('content-type') as string }, payload });
    },
  };
}

/** The JSON events of an SSE answer, in order, without the `[DONE]` that ends a chat stream. */
export function sseEvents(response: LightMyRequestResponse): unknown[] {
  return sseData(response.rawPayload)
    .filter((data) => data !== '[DONE]')
    .map((data) => JSON.parse(data) as unknown);
}
