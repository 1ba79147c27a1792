import { randomBytes } from 'node:crypto';
import { startFakeArkUpstream, type FakeArkUpstream } from '../test/fakes/ark/fake-ark-upstream.js';
import { startFakeDashScopeUpstream, type FakeDashScopeUpstream } from '../test/fakes/dashscope/fake-dashscope-upstream.js';
import { startFakeGxUpstream, type FakeGxUpstream } from '../test/fakes/gx/fake-gx-upstream.js';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../test/fakes/openai/fake-openai-upstream.js';
import { startFakeVeoUpstream, type FakeVeoUpstream } from '../test/fakes/veo/fake-veo-upstream.js';

/** One running fake and the key it accepts. */
export interface DemoUpstream<Fake> {
  fake: Fake;
  key: string;
}

/**
 * The vendor fakes the demo's channels point at, one per wire format: gx (gx), OpenAI (gp, gi,
 * audio, sr), Ark (dsr, dsx and its asset library), DashScope (qi, wn, hx) and Veo (vo).
 */
export interface DemoUpstreams {
  gx: DemoUpstream<FakeGxUpstream>;
  openai: DemoUpstream<FakeOpenAiUpstream>;
  ark: DemoUpstream<FakeArkUpstream> & { accessKeyId: string; secretAccessKey: string };
  dashscope: DemoUpstream<FakeDashScopeUpstream>;
  veo: DemoUpstream<FakeVeoUpstream>;
  /** Stops every fake. */
  close(): Promise<void>;
}

const demoKey = (vendor: string) => `${vendor}-demo-${randomBytes(12).toString('hex')}`;

/**
 * Starts every vendor fake of `test/fakes/` on a free loopback port, each with a fresh key, so
 * the gateway's channels authenticate upstream as they would against the real vendors. The
 * fakes keep what they are sent in memory, which is fine for a demo's few requests.
 */
export async function startDemoUpstreams(): Promise<DemoUpstreams> {
  const running: Array<{ close(): Promise<void> }> = [];
  const close = async () => {
    await Promise.all(running.map((fake) => fake.close()));
  };
  const upstream = async <Fake extends { close(): Promise<void> }>(vendor: string, start: (key: string) => Promise<Fake>) => {
    const key = demoKey(vendor);
    const fake = await start(key);
    running.push(fake);
    return { fake, key };
  };
  try {
    const accessKeyId = demoKey('ark-ak');
    const secretAccessKey = demoKey('ark-sk');
    return {
      gx: await upstream('gx', (apiKey) => startFakeGxUpstream({ apiKey })),
      openai: await upstream('openai', (apiKey) => startFakeOpenAiUpstream({ apiKey })),
      ark: { ...(await upstream('ark', (apiKey) => startFakeArkUpstream({ apiKey, accessKeyId, secretAccessKey }))), accessKeyId, secretAccessKey },
      dashscope: await upstream('dashscope', (apiKey) => startFakeDashScopeUpstream({ apiKey })),
      veo: await upstream('veo', (apiKey) => startFakeVeoUpstream({ apiKey })),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
