import type { AddressInfo } from 'node:net';
import type { Test } from 'tap';
import { startFakeGxUpstream, type FakeGxUpstream } from '../fakes/gx/fake-gx-upstream.js';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../fakes/openai/fake-openai-upstream.js';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { issueToken, storedToken, type IssuedToken } from '../helpers/gateway-scenario.js';

const gxKey = 'gx-agents-upstream-key';
const openAiKey = 'openai-agents-upstream-key';

/** The models the agents are pointed at, one per family. */
export const agentModels = { gx: 'gx-2.5-pro', gp: 'gp-5.4' } as const;

/** Prices of {@link agentModels}, in USD per million tokens. */
export const agentPrices = {
  [agentModels.gx]: { input_per_mtok: 1.25, output_per_mtok: 10 },
  [agentModels.gp]: { input_per_mtok: 2, output_per_mtok: 8 },
} as const;

/** A gateway listening on loopback in front of the gx and OpenAI fakes, with a token for the agent. */
export interface AgentGateway {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** The token's full key, `sk-...`. */
  apiKey: string;
  gx: FakeGxUpstream;
  openAi: FakeOpenAiUpstream;
  /** The token's `used_quota`, read through the management API. */
  usedQuota(): Promise<number>;
}

/**
 * Starts the fakes and a gateway (memory store) with a gx channel and a gp channel on them,
 * listening on 127.0.0.1 and an ephemeral port so an agent process can reach it, and issues
 * a token with quota (not unlimited, so its use is counted) through the management API.
 * Everything closes when `t` ends.
 */
export async function startAgentGateway(t: Test): Promise<AgentGateway> {
  const gx = await startFakeGxUpstream({ apiKey: gxKey });
  t.teardown(() => gx.close());
  const openAi = await startFakeOpenAiUpstream({ apiKey: openAiKey });
  t.teardown(() => openAi.close());
  const gateway: TestApp = await buildTestApp(t, 'memory', {
    providers: [
      { name: 'gx-main', plugin: 'gx', base_url: gx.url, api_key: gxKey, models: [agentModels.gx] },
      { name: 'gp-main', plugin: 'gp', base_url: openAi.url, api_key: openAiKey, models: [agentModels.gp] },
    ],
    pricing: agentPrices,
  });
  await gateway.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = gateway.app.server.address() as AddressInfo;
  const token: IssuedToken = await issueToken(t, gateway, { remain_quota: 500_000_000 });
  return {
    url: `http://127.0.0.1:${port}`,
    apiKey: `sk-${token.key}`,
    gx,
    openAi,
    usedQuota: async () => (await storedToken(gateway, token)).used_quota,
  };
}
