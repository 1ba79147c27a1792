import t from 'tap';
import { startFakeOpenAiUpstream } from '../fakes/openai/fake-openai-upstream.js';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { issueToken, scenarioPricing, storedToken, type IssuedToken } from '../helpers/gateway-scenario.js';
import { storageFor, testConfig } from '../helpers/test-config.js';

// A task polled at once by many clients through two gateway instances on one Redis, with
// both background pollers asking too, is settled exactly once: the claim on its settlement
// is taken in the store, so no instance charges a hold another has already charged.

const upstreamKey = 'sr-upstream-key';
// sr-2 at 0.10 USD a second, 1.5 times that at 720p: 75000 quota units a second.
const pricing = { ...scenarioPricing, 'sr-2': { per_second: 0.1, resolution_multipliers: { '720p': 1.5 } } };
const startingQuota = 50_000_000;

t.test('a task polled concurrently through two instances on one Redis is charged exactly once', async (t) => {
  const fake = await startFakeOpenAiUpstream({ apiKey: upstreamKey });
  t.teardown(() => fake.close());
  const config = testConfig(storageFor(t, 'redis'), {
    pricing,
    tasks: { min_poll_interval_ms: 0, background_poll_ms: 100 },
    providers: [{ name: 'sr-main', plugin: 'sr', base_url: fake.url, api_key: upstreamKey, models: ['sr-2'], model_map: { 'sr-2': 'sora-2' } }],
  });
  const instances: TestApp[] = [await buildTestApp(t, 'redis', {}, { config }), await buildTestApp(t, 'redis', {}, { config })];
  const token: IssuedToken = await issueToken(t, instances[0]!, { remain_quota: startingQuota });
  const poll = (instance: TestApp, id: string) => instance.app.inject({ method: 'GET', url: `/v1/video/generations/${id}`, headers: token.bearer });

  for (let round = 0; round < 3; round += 1) {
    const submitted = await instances[round % 2]!.app.inject({
      method: 'POST',
      url: '/v1/video/generations',
      headers: { ...token.bearer, 'content-type': 'application/json' },
      payload: { model: 'sr-2', prompt: `race ${round}`, seconds: 4, size: '1280x720' },
    });
    t.equal(submitted.statusCode, 200);
    const id = submitted.json().task_id as string;
    let status = 'submitted';
    while (status !== 'succeeded' && status !== 'failed') {
      const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => poll(instances[index % 2]!, id)));
      t.ok(answers.every((answer) => answer.statusCode === 200), 'every poll is answered');
      status = answers.map((answer) => answer.json().status as string).find((seen) => seen === 'succeeded' || seen === 'failed') ?? 'in_progress';
    }
    t.equal(status, 'succeeded', `task ${round + 1} succeeded`);
  }
  // Let the background pollers have their turns at the finished tasks too.
  await new Promise((resolve) => setTimeout(resolve, 300));

  const stored = await storedToken(instances[1]!, token);
  const charge = 3 * 4 * 75_000;
  t.equal(stored.used_quota, charge, `three 4 s videos at 720p: ${charge} units, each charged once`);
  t.equal(stored.remain_quota, startingQuota - charge, 'and every hold became exactly its charge');
});
