import type { Test } from 'tap';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../fakes/openai/fake-openai-upstream.js';
import type { LogEntry } from './cli-gateway-process.js';
import { httpCall } from './http-call.js';
import {
  balanceAt,
  chatThrough,
  issueSceneToken,
  refusedByEveryProcess,
  sleep,
  unitsPerCall,
  type Balance,
  type GatewayInstance,
  type MultiInstanceScene,
  type SceneToken,
} from './multi-instance-scene.js';

/**
 * The guarantees several gateway instances on one shared store must keep, whatever the store:
 * exact quota under a race, give-backs that survive another instance's exhaustion, token
 * invalidation and user disabling everywhere within 1 s, task records and Responses affinity
 * seen by all, and a channel created or deleted through one served, or not, by all.
 * `scene` holds at least three instances.
 */
export function multiInstanceCases(t: Test, scene: MultiInstanceScene): void {
  const { bases, upstreamA } = scene;
  const [first, second, third] = bases as [string, string, string];

  t.test('300 concurrent requests spread over them against a quota that fits 30: at most 30 succeed, billed exactly', async (t) => {
    const startingQuota = 30 * unitsPerCall;
    const token = await issueSceneToken(scene, first, { remain_quota: startingQuota });
    // Each instance authenticates the token once first, so all of them race for the quota at once.
    t.same(await Promise.all(bases.map(async (base) => (await httpCall(`${base}/v1/models`, { headers: token.bearer })).status)), bases.map(() => 200));
    const upstreamCallsBefore = upstreamA.requests.filter((request) => request.path === '/v1/chat/completions').length;
    const answers = await Promise.all(Array.from({ length: 300 }, (_, index) => chatThrough(bases[index % bases.length] as string, token, `request ${index}`)));
    const statuses = answers.map((answer) => answer.status);
    const succeeded = statuses.filter((status) => status === 200).length;
    t.ok(succeeded <= 30, `at most 30 succeed (${succeeded} did)`);
    t.equal(succeeded, 30, 'and every one that fitted did');
    t.same(
      statuses.filter((status) => status !== 200 && status !== 402 && status !== 429),
      [],
      'the others are refused with 402 or 429',
    );
    const successesPerInstance = bases.map((_, instance) => statuses.filter((status, index) => index % bases.length === instance && status === 200).length);
    t.comment(`successes per instance: ${successesPerInstance.join(', ')}`);
    const upstreamCalls = upstreamA.requests.filter((request) => request.path === '/v1/chat/completions').length - upstreamCallsBefore;
    t.equal(upstreamCalls, succeeded, 'only the requests that fitted reached the upstream');

    // Settlement (and then the exhausted status) runs once each answer is sent, so the books may close a moment later.
    let balances: Balance[] = [];
    for (const until = Date.now() + 5000; Date.now() < until; await sleep(20)) {
      balances = await Promise.all(bases.map((base) => balanceAt(scene, base, token.id)));
      if (balances.every((balance) => balance.used_quota === succeeded * unitsPerCall && balance.status === 4)) break;
    }
    for (const [instance, balance] of balances.entries()) {
      t.ok(balance.remain_quota >= 0, `remain_quota never below 0 (instance ${instance}: ${balance.remain_quota})`);
      t.equal(balance.used_quota + balance.remain_quota, startingQuota, `used_quota + remain_quota is the starting quota (instance ${instance})`);
      t.equal(balance.used_quota, succeeded * unitsPerCall, `each success is charged once (instance ${instance})`);
    }
    t.equal(balances[0]?.status, 4, 'the spent token is stored as exhausted');
  });

  t.test('a token spent on one while another still holds quota it gives back keeps what came back', async (t) => {
    const token = await issueSceneToken(scene, first, { remain_quota: 2 * unitsPerCall });
    upstreamA.next({ stallBeforeHeadersMs: 500, error: 500 });
    const callsBefore = upstreamA.requests.length;
    const failing = chatThrough(first, token, 'hi');
    while (upstreamA.requests.length === callsBefore) await sleep(5);
    t.equal((await chatThrough(second, token, 'hi')).status, 200, 'a second request, on another instance, spends the rest');
    t.equal((await failing).status, 502, 'the first fails upstream and its hold is refunded');
    const balance = await balanceAt(scene, third, token.id);
    t.same({ remain_quota: balance.remain_quota, used_quota: balance.used_quota }, { remain_quota: unitsPerCall, used_quota: unitsPerCall }, 'the balance is exact');
    t.equal(balance.status, 1, 'the token is not left stored as exhausted');
    t.equal((await chatThrough(third, token, 'hi')).status, 200, 'so a third request succeeds');
  });

  t.test('a token disabled through one of them is refused by every process of every instance within 1 s', async (t) => {
    const token = await issueSceneToken(scene, first, { unlimited_quota: true });
    // Enough requests that each process of each instance has the token in its cache.
    for (const instance of scene.instances) {
      const warm = await Promise.all(instance.servingPids.map(() => httpCall(`${instance.base}/v1/models`, { headers: token.bearer })));
      t.same(warm.map((answer) => answer.status), instance.servingPids.map(() => 200), 'the token is served (and cached) first');
    }

    const sent = Date.now();
    const disabled = await httpCall(`${second}/api/token/?status_only=true`, { method: 'PUT', headers: scene.asOperator, body: { id: token.id, status: 2 } });
    t.equal(disabled.json().success, true);
    const refusedAfter = await Promise.all(scene.instances.map((instance) => refusedByEveryProcess(instance, token, sent)));
    for (const [index, refused] of refusedAfter.entries()) {
      const processes = scene.instances[index]?.servingPids.length;
      t.ok(refused.milliseconds < 1000, `instance ${index} (${processes} serving processes) refuses it in every process ${refused.milliseconds} ms after the disable was sent`);
      t.same(refused.codes, ['token_disabled']);
    }
  });

  t.test("a user disabled through one of them: its API keys are refused by every process of every instance within 1 s, and its login token everywhere", async (t) => {
    const created = await httpCall(`${first}/api/user/`, { headers: scene.asOperator, body: { username: `disabled-${Date.now()}` } });
    const user = created.json().data as { id: number; login_token: string };
    const login = { authorization: `Bearer ${user.login_token}` };
    const token = await issueSceneToken(scene, first, { unlimited_quota: true }, login);
    for (const instance of scene.instances) {
      const warm = await Promise.all(instance.servingPids.map(() => httpCall(`${instance.base}/v1/models`, { headers: token.bearer })));
      t.same(warm.map((answer) => answer.status), instance.servingPids.map(() => 200), 'the key is served (and cached) first');
    }

    const sent = Date.now();
    const disabled = await httpCall(`${second}/api/user/`, { method: 'PUT', headers: scene.asOperator, body: { id: user.id, status: 2 } });
    t.equal(disabled.json().success, true);
    const refusedAfter = await Promise.all(scene.instances.map((instance) => refusedByEveryProcess(instance, token, sent, { status: 403 })));
    for (const [index, refused] of refusedAfter.entries()) {
      t.ok(refused.milliseconds < 1000, `instance ${index} refuses the key in every process ${refused.milliseconds} ms after the disable was sent`);
      t.same(refused.codes, ['user_disabled']);
    }
    for (const base of bases) {
      t.equal((await httpCall(`${base}/api/token/`, { headers: login })).status, 403, 'the login token is refused');
    }
  });

  t.test('a video task submitted on one is found on the others', async (t) => {
    const token = await issueSceneToken(scene, first, { unlimited_quota: true });
    const submitted = await httpCall(`${first}/v1/video/generations`, { headers: token.bearer, body: { model: 'vx-test', prompt: 'a lighthouse at dusk, seconds: 4' } });
    t.equal(submitted.status, 200, 'the task is accepted');
    const taskId = submitted.json().task_id as string;
    for (const base of bases.slice(1)) {
      const found = await httpCall(`${base}/v1/video/generations/${taskId}`, { headers: token.bearer });
      t.equal(found.status, 200, 'another instance finds it');
      t.match(found.json(), { task_id: taskId, status: 'queued', model: 'vx-test', seconds: 4 });
    }
    const stranger = await issueSceneToken(scene, first, { unlimited_quota: true });
    t.equal((await httpCall(`${third}/v1/video/generations/${taskId}`, { headers: stranger.bearer })).status, 404, 'and only by its own token');
  });

  t.test('a previous_response_id produced through one goes to the same channel through the others', async (t) => {
    const token = await issueSceneToken(scene, first, { unlimited_quota: true });
    const opening = await httpCall(`${first}/v1/responses`, { headers: token.bearer, body: { model: 'gp-5.4', input: 'remember 7' } });
    t.equal(opening.status, 200, 'the first turn is answered');
    const id = opening.json().id as string;
    const [holder, other] = upstreamA.storedResponses.has(id) ? [upstreamA, scene.upstreamB] : [scene.upstreamB, upstreamA];
    t.ok(holder.storedResponses.has(id), 'one upstream holds the response');
    const responsesCalls = (upstream: FakeOpenAiUpstream) => upstream.requests.filter((request) => request.path === '/v1/responses');
    const before = [responsesCalls(holder).length, responsesCalls(other).length];

    const followUps = await Promise.all(
      Array.from({ length: 8 }, (_, turn) =>
        httpCall(`${bases[1 + (turn % (bases.length - 1))]}/v1/responses`, { headers: token.bearer, body: { model: 'gp-5.4', input: `turn ${turn}`, previous_response_id: id } }),
      ),
    );
    t.same(followUps.map((answer) => answer.status), Array(8).fill(200), 'every follow-up is answered');
    const reachedHolder = responsesCalls(holder).slice(before[0]);
    t.equal(reachedHolder.length, 8, 'every follow-up went to the channel holding the response');
    t.equal(responsesCalls(other).length - (before[1] as number), 0, 'none to the other');
    t.ok(reachedHolder.every((request) => (request.json as { previous_response_id?: string }).previous_response_id === id));
  });

  t.test('a channel created through one of them is served by every process of every instance, and once deleted by none', async (t) => {
    const runtimeKey = 'gp-runtime-upstream-key';
    const runtimeUpstream = await startFakeOpenAiUpstream({ apiKey: runtimeKey });
    t.teardown(() => runtimeUpstream.close());
    const token = await issueSceneToken(scene, first, { unlimited_quota: true });
    // gp-mini is served by gp-a already: the new channel is tried first by its priority, so each answer says which channel served it.
    const channel = { name: 'gp-runtime', plugin: 'gp', base_url: runtimeUpstream.url, api_key: runtimeKey, models: ['gp-mini'], model_map: { 'gp-mini': 'gpt-5.4-mini' }, priority: 10 };
    const created = await httpCall(`${second}/api/channel/`, { headers: scene.asOperator, body: channel });
    t.equal(created.status, 200, 'created through the second instance');
    for (const [index, instance] of scene.instances.entries()) {
      t.ok(await everyProcessRoutes(instance, token, 'gp-runtime', true), `every one of the ${instance.servingPids.length} serving processes of instance ${index} answers through it`);
    }
    t.ok(runtimeUpstream.requests.length > 0, 'the new upstream was called');
    t.notOk((await httpCall(`${third}/api/channel/`, { headers: scene.asOperator })).body.includes(runtimeKey), "another instance lists it without its key");

    const deleted = await httpCall(`${third}/api/channel/gp-runtime`, { method: 'DELETE', headers: scene.asOperator });
    t.equal(deleted.status, 200, 'deleted through the third');
    for (const [index, instance] of scene.instances.entries()) {
      t.ok(await everyProcessRoutes(instance, token, 'gp-runtime', false), `no serving process of instance ${index} answers through it any more`);
    }
  });
}

let routedCount = 0;

/**
 * Sends gp-mini chats as the token to `instance` until each of its serving processes has
 * answered one through `channel` (or, with `through` false, through another one), polling for
 * at most 10 s; false when some process never did. Which process answered, and through which
 * channel, is read from its log line.
 */
async function everyProcessRoutes(instance: GatewayInstance, token: SceneToken, channel: string, through: boolean): Promise<boolean> {
  const done = new Set<number>();
  for (const until = Date.now() + 10_000; Date.now() < until; ) {
    routedCount += 1;
    const requestId = `runtime-channel-${process.pid}-${routedCount}`;
    const answer = await httpCall(`${instance.base}/v1/chat/completions`, { headers: { ...token.bearer, 'x-request-id': requestId }, body: { model: 'gp-mini', messages: [{ role: 'user', content: 'which channel?' }] } });
    if (answer.status === 200) {
      const [entry] = await instance.process.waitForLogs(/^model request answered$/, 1, { where: (logged) => logged.reqId === requestId });
      const attempts = ((entry as LogEntry).attempts ?? []) as Array<{ channel: string }>;
      if ((attempts.at(-1)?.channel === channel) === through) done.add((entry as LogEntry).pid);
      if (instance.servingPids.every((pid) => done.has(pid))) return true;
    }
    await sleep(5);
  }
  return false;
}
