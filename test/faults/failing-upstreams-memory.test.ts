import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import t from 'tap';
import { Agent, request } from 'undici';
import { issueToken } from '../helpers/gateway-scenario.js';
import { startFaultScene, type FaultScene } from './fault-scene.js';

// Memory under failure, where other gateways grow (reference/landscape.md §3.8): thousands of
// requests whose every channel fails, with retries, and thousands of made-up API keys, leave
// the heap (after a full collection) where it was (fewer failures than the breaker threshold
// of the scene, so every request tries both channels). Nothing may keep a record per failed
// attempt or per unknown key. Sent over real HTTP: fastify's inject keeps about 9 KiB per
// request in the test process itself, which would hide the gateway's own figure.

const heapGrowthBound = 8 * 1024 * 1024;

function fullCollection(): () => void {
  setFlagsFromString('--expose_gc');
  const gc = runInNewContext('gc') as () => void;
  return () => {
    gc();
    gc();
  };
}

/** Empties what the test's own recorders keep (captured log lines, the fakes' request logs), which is not the gateway's memory. */
function forgetRecords(scene: FaultScene): void {
  scene.gateway.logLines.length = 0;
  for (const fake of [scene.gx.first, scene.gx.second, scene.openAi.first, scene.openAi.second]) fake.requests.length = 0;
}

t.test('every channel failing, and made-up keys, leave the heap where it was', async (t) => {
  const scene = await startFaultScene(t);
  await scene.gateway.app.listen({ port: 0, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${(scene.gateway.app.server.address() as AddressInfo).port}`;
  const dispatcher = new Agent({ connections: 16 });
  t.teardown(() => dispatcher.close());
  const token = await issueToken(t, scene.gateway);
  const chatBody = (stream: boolean) => JSON.stringify({ model: 'gx-2.5-pro', stream, messages: [{ role: 'user', content: 'fail please' }] });
  const post = async (path: string, body: string, authorization: string) => {
    const answer = await request(`${origin}${path}`, { method: 'POST', dispatcher, headers: { authorization, 'content-type': 'application/json' }, body });
    await answer.body.text();
    return answer.statusCode;
  };
  const sends = {
    failing: async (count: number) => {
      const statuses: number[] = [];
      for (let index = 0; index < count; index += 8) {
        for (let slot = 0; slot < 8 * 2; slot += 1) (slot % 2 === 0 ? scene.gx.first : scene.gx.second).next({ error: 500 });
        const batch = Array.from({ length: 8 }, (_, slot) =>
          slot % 2 === 0 ? post('/v1/chat/completions', chatBody(slot % 4 === 0), token.bearer.authorization) : post('/v1beta/models/gx-2.5-pro:generateContent', JSON.stringify({ contents: [{ parts: [{ text: 'fail' }] }] }), token.bearer.authorization),
        );
        statuses.push(...(await Promise.all(batch)));
      }
      return statuses;
    },
    unknownKeys: async (count: number) => {
      const statuses: number[] = [];
      for (let index = 0; index < count; index += 16) {
        statuses.push(...(await Promise.all(Array.from({ length: 16 }, (_, slot) => post('/v1/chat/completions', chatBody(false), `Bearer sk-made-up-${index + slot}-${Math.random().toString(36).slice(2)}`)))));
      }
      return statuses;
    },
  };

  const collect = fullCollection();
  // A first pass compiles the paths and fills what is meant to be cached.
  await sends.failing(160);
  await sends.unknownKeys(400);
  forgetRecords(scene);
  collect();
  const before = process.memoryUsage().heapUsed;

  const failed = await sends.failing(640);
  t.same([...new Set(failed)], [502], `${failed.length} requests, each failed on both channels, answer 502`);
  const refused = await sends.unknownKeys(4000);
  t.same([...new Set(refused)], [401], `${refused.length} made-up keys answer 401`);
  forgetRecords(scene);
  collect();
  const growth = process.memoryUsage().heapUsed - before;
  t.ok(growth < heapGrowthBound, `the heap grew by ${(growth / 1048576).toFixed(1)} MiB, under ${heapGrowthBound / 1048576} MiB`);
});
