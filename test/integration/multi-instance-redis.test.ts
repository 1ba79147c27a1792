import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { startFakeOpenAiUpstream, type FakeOpenAiUpstream } from '../fakes/openai/fake-openai-upstream.js';
import { listeningUrl, startCliGateway, writeGatewayConfig } from '../helpers/cli-gateway-process.js';
import { httpCall } from '../helpers/http-call.js';
import { storageFor, testEncryptionKey } from '../helpers/test-config.js';

// Three gateway processes, as on three machines: each its own port and data directory, one
// Redis key prefix and one encryption key between them. They start once for every case.

const scriptedVideoPlugin = fileURLToPath(new URL('../fixtures/plugins/scripted-video-provider.ts', import.meta.url));
const upstreamKey = 'gp-upstream-key';
const loginToken = `mgu_${randomBytes(24).toString('hex')}`;
const asOperator = { authorization: `Bearer ${loginToken}` };
// gp-mini costs 0.002 USD a call: 1000 quota units, reserved and charged alike.
const unitsPerCall = 1000;

// A model_map key is a model the channel serves, so each channel maps only its own models.
const upstreamModels: Record<string, string> = { 'gp-5.4': 'gpt-5.4', 'gp-mini': 'gpt-5.4-mini' };
const gpChannel = (name: string, fake: FakeOpenAiUpstream, models: string[]) => ({
  name,
  plugin: 'gp',
  base_url: fake.url,
  api_key: upstreamKey,
  models,
  model_map: Object.fromEntries(models.map((model) => [model, upstreamModels[model]])),
});

const upstreamA = await startFakeOpenAiUpstream({ apiKey: upstreamKey });
const upstreamB = await startFakeOpenAiUpstream({ apiKey: upstreamKey });
t.teardown(() => Promise.all([upstreamA.close(), upstreamB.close()]));
const storage = storageFor(t, 'redis');
const instances = [0, 1, 2].map(() => {
  const file = writeGatewayConfig(t, {
    server: { host: '127.0.0.1', port: 0, shutdown_grace_ms: 2000 },
    storage: { ...storage, data_dir: t.testdir({}) },
    security: { encryption_key: testEncryptionKey },
    users: [{ id: 1, username: 'operator', login_token: loginToken }],
    pricing: { 'gp-5.4': { input_per_mtok: 2, output_per_mtok: 8 }, 'gp-mini': { per_call: 0.002 }, 'vx-test': { per_second: 0.1 } },
    providers: [
      gpChannel('gp-a', upstreamA, ['gp-5.4', 'gp-mini']),
      gpChannel('gp-b', upstreamB, ['gp-5.4']),
      { name: 'video-main', plugin: scriptedVideoPlugin, base_url: 'http://127.0.0.1:9', models: ['vx-test'] },
    ],
    // Nobody asks the upstream about a task here: the scripted provider keeps its tasks in the
    // memory of the process that accepted them, so only the shared record can be seen elsewhere.
    tasks: { min_poll_interval_ms: 600_000, background_poll_ms: 3_600_000 },
  });
  return startCliGateway(t, file);
});
const bases = await Promise.all(instances.map(async (instance) => listeningUrl(await instance.waitForLog(/^Server listening at /))));

/** Creates a token through `base`'s management API and reveals its key there. */
async function issueToken(base: string, fields: Record<string, unknown>): Promise<{ id: number; bearer: { authorization: string } }> {
  const created = await httpCall(`${base}/api/token/`, { headers: asOperator, body: { name: 'multi-instance', ...fields } });
  if (created.json().success !== true) throw new Error(`token not created: ${created.body}`);
  const id = (await httpCall(`${base}/api/token/?size=1`, { headers: asOperator })).json().data.items[0].id as number;
  const key = (await httpCall(`${base}/api/token/${id}/key`, { method: 'POST', headers: asOperator })).json().data.key as string;
  return { id, bearer: { authorization: `Bearer sk-${key}` } };
}

interface Balance {
  status: number;
  remain_quota: number;
  used_quota: number;
}

const balanceAt = async (base: string, id: number): Promise<Balance> => {
  const { status, remain_quota, used_quota } = (await httpCall(`${base}/api/token/${id}`, { headers: asOperator })).json().data as Balance;
  return { status, remain_quota, used_quota };
};

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

t.test('three processes on one Redis', async (t) => {
  t.test('300 concurrent requests spread over them against a quota that fits 30: at most 30 succeed, billed exactly', async (t) => {
    const startingQuota = 30 * unitsPerCall;
    const token = await issueToken(bases[0] as string, { remain_quota: startingQuota });
    // Each process authenticates the token once first, so all three race for the quota at once.
    t.same(await Promise.all(bases.map(async (base) => (await httpCall(`${base}/v1/models`, { headers: token.bearer })).status)), [200, 200, 200]);
    const upstreamCallsBefore = upstreamA.requests.filter((request) => request.path === '/v1/chat/completions').length;
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, index) =>
        httpCall(`${bases[index % 3]}/v1/chat/completions`, {
          headers: token.bearer,
          body: { model: 'gp-mini', messages: [{ role: 'user', content: `request ${index}` }] },
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    const succeeded = statuses.filter((status) => status === 200).length;
    t.ok(succeeded <= 30, `at most 30 succeed (${succeeded} did)`);
    t.equal(succeeded, 30, 'and every one that fitted did');
    t.same(
      statuses.filter((status) => status !== 200 && status !== 402 && status !== 429),
      [],
      'the others are refused with 402 or 429',
    );
    const successesPerInstance = [0, 1, 2].map((instance) => statuses.filter((status, index) => index % 3 === instance && status === 200).length);
    t.comment(`successes per instance: ${successesPerInstance.join(', ')}`);
    const upstreamCalls = upstreamA.requests.filter((request) => request.path === '/v1/chat/completions').length - upstreamCallsBefore;
    t.equal(upstreamCalls, succeeded, 'only the requests that fitted reached the upstream');

    // Settlement (and then the exhausted status) runs once each answer is sent, so the books may close a moment later.
    let balances: Balance[] = [];
    for (const until = Date.now() + 5000; Date.now() < until; await sleep(20)) {
      balances = await Promise.all(bases.map((base) => balanceAt(base, token.id)));
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
    const token = await issueToken(bases[0] as string, { remain_quota: 2 * unitsPerCall });
    const chat = (base: string) => httpCall(`${base}/v1/chat/completions`, { headers: token.bearer, body: { model: 'gp-mini', messages: [{ role: 'user', content: 'hi' }] } });
    upstreamA.next({ stallBeforeHeadersMs: 500, error: 500 });
    const callsBefore = upstreamA.requests.length;
    const failing = chat(bases[0] as string);
    while (upstreamA.requests.length === callsBefore) await sleep(5);
    t.equal((await chat(bases[1] as string)).status, 200, 'a second request, on another process, spends the rest');
    t.equal((await failing).status, 502, 'the first fails upstream and its hold is refunded');
    const balance = await balanceAt(bases[2] as string, token.id);
    t.same({ remain_quota: balance.remain_quota, used_quota: balance.used_quota }, { remain_quota: unitsPerCall, used_quota: unitsPerCall }, 'the balance is exact');
    t.equal(balance.status, 1, 'the token is not left stored as exhausted');
    t.equal((await chat(bases[2] as string)).status, 200, 'so a third request succeeds');
  });

  t.test('a token disabled through one of them is refused by all three within 1 s', async (t) => {
    const token = await issueToken(bases[0] as string, { unlimited_quota: true });
    const models = (base: string) => httpCall(`${base}/v1/models`, { headers: token.bearer });
    t.same(await Promise.all(bases.map(async (base) => (await models(base)).status)), [200, 200, 200], 'each has the token in its cache');

    const sent = Date.now();
    const disabled = await httpCall(`${bases[1]}/api/token/?status_only=true`, { method: 'PUT', headers: asOperator, body: { id: token.id, status: 2 } });
    t.equal(disabled.json().success, true);
    const refusedAfter = await Promise.all(
      bases.map(async (base) => {
        for (;;) {
          const answer = await models(base);
          if (answer.status === 401) return { milliseconds: Date.now() - sent, code: answer.json().error.code as string };
          if (Date.now() - sent > 5000) return { milliseconds: Infinity, code: String(answer.status) };
          await sleep(5);
        }
      }),
    );
    for (const [instance, refused] of refusedAfter.entries()) {
      t.ok(refused.milliseconds < 1000, `instance ${instance} refuses it ${refused.milliseconds} ms after the disable was sent`);
      t.equal(refused.code, 'token_disabled');
    }
  });

  t.test('a video task submitted on one is found on the others', async (t) => {
    const token = await issueToken(bases[0] as string, { unlimited_quota: true });
    const submitted = await httpCall(`${bases[0]}/v1/video/generations`, { headers: token.bearer, body: { model: 'vx-test', prompt: 'a lighthouse at dusk, seconds: 4' } });
    t.equal(submitted.status, 200, 'the task is accepted');
    const taskId = submitted.json().task_id as string;
    for (const base of bases.slice(1)) {
      const found = await httpCall(`${base}/v1/video/generations/${taskId}`, { headers: token.bearer });
      t.equal(found.status, 200, 'another process finds it');
      t.match(found.json(), { task_id: taskId, status: 'queued', model: 'vx-test', seconds: 4 });
    }
    const stranger = await issueToken(bases[0] as string, { unlimited_quota: true });
    t.equal((await httpCall(`${bases[2]}/v1/video/generations/${taskId}`, { headers: stranger.bearer })).status, 404, 'and only by its own token');
  });

  t.test('a previous_response_id produced through one goes to the same channel through the others', async (t) => {
    const token = await issueToken(bases[0] as string, { unlimited_quota: true });
    const opening = await httpCall(`${bases[0]}/v1/responses`, { headers: token.bearer, body: { model: 'gp-5.4', input: 'remember 7' } });
    t.equal(opening.status, 200, 'the first turn is answered');
    const id = opening.json().id as string;
    const [holder, other] = upstreamA.storedResponses.has(id) ? [upstreamA, upstreamB] : [upstreamB, upstreamA];
    t.ok(holder.storedResponses.has(id), 'one upstream holds the response');
    const responsesCalls = (upstream: FakeOpenAiUpstream) => upstream.requests.filter((request) => request.path === '/v1/responses');
    const before = [responsesCalls(holder).length, responsesCalls(other).length];

    const followUps = await Promise.all(
      Array.from({ length: 8 }, (_, turn) =>
        httpCall(`${bases[1 + (turn % 2)]}/v1/responses`, { headers: token.bearer, body: { model: 'gp-5.4', input: `turn ${turn}`, previous_response_id: id } }),
      ),
    );
    t.same(followUps.map((answer) => answer.status), Array(8).fill(200), 'every follow-up is answered');
    const reachedHolder = responsesCalls(holder).slice(before[0]);
    t.equal(reachedHolder.length, 8, 'every follow-up went to the channel holding the response');
    t.equal(responsesCalls(other).length - (before[1] as number), 0, 'none to the other');
    t.ok(reachedHolder.every((request) => (request.json as { previous_response_id?: string }).previous_response_id === id));
  });
});
