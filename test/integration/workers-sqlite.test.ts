import { randomBytes } from 'node:crypto';
import t from 'tap';
import { startFakeOpenAiUpstream } from '../fakes/openai/fake-openai-upstream.js';
import { listeningUrl, startCliGateway, writeGatewayConfig, type CliGatewayProcess, type LogEntry } from '../helpers/cli-gateway-process.js';
import { httpCall, type HttpAnswer } from '../helpers/http-call.js';
import { storageFor, testEncryptionKey } from '../helpers/test-config.js';

// `model-gateway start` with two workers on one SQLite file, as a real process with real
// HTTP: the workers share the file, and token changes go from one to the other through the
// cluster primary.

const upstreamKey = 'gp-upstream-key';
const loginToken = `mgu_${randomBytes(24).toString('hex')}`;
const asOperator = { authorization: `Bearer ${loginToken}` };
// gp-mini costs 0.002 USD a call: 1000 quota units, reserved and charged alike.
const unitsPerCall = 1000;

const upstream = await startFakeOpenAiUpstream({ apiKey: upstreamKey });
t.teardown(() => upstream.close());
const storage = storageFor(t, 'sqlite');
const file = writeGatewayConfig(t, {
  server: { host: '127.0.0.1', port: 0, shutdown_grace_ms: 2000, workers: 2 },
  storage,
  security: { encryption_key: testEncryptionKey },
  // A configured user and key: both workers start at once, and open the new file together.
  users: [{ id: 1, username: 'operator', login_token: loginToken }],
  pricing: { 'gp-mini': { per_call: 0.002 } },
  providers: [{ name: 'gp-main', plugin: 'gp', base_url: upstream.url, api_key: upstreamKey, models: ['gp-mini'], model_map: { 'gp-mini': 'gpt-5.4-mini' } }],
});
const gateway = startCliGateway(t, file);
const listening = await gateway.waitForLogs(/^Server listening at /, 2);
const primaryPid = (await gateway.waitForLog(/^every worker is listening$/)).pid;
const base = listeningUrl(listening[0] as LogEntry);
let workerPids = listening.map((entry) => entry.pid);

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** The pid of the worker that answered each request id, from its log line ("model request answered" or "failed" on model routes). */
async function answeringPids(gatewayProcess: CliGatewayProcess, requestIds: readonly string[]): Promise<number[]> {
  const wanted = new Set(requestIds);
  const entries = await gatewayProcess.waitForLogs(/^(model )?request (answered|failed)$/, requestIds.length, { where: (entry) => wanted.has(entry.reqId as string) });
  const byId = new Map(entries.map((entry) => [entry.reqId as string, entry.pid]));
  return requestIds.map((id) => byId.get(id) as number);
}

let requestCount = 0;
const nextId = (label: string) => `${label}-${requestCount++}`;

/** Creates a token through the management API and reveals its key. */
async function issueToken(fields: Record<string, unknown>): Promise<{ id: number; bearer: { authorization: string } }> {
  const created = await httpCall(`${base}/api/token/`, { headers: asOperator, body: { name: 'workers-sqlite', ...fields } });
  if (created.json().success !== true) throw new Error(`token not created: ${created.body}`);
  const id = (await httpCall(`${base}/api/token/?size=1`, { headers: asOperator })).json().data.items[0].id as number;
  const key = (await httpCall(`${base}/api/token/${id}/key`, { method: 'POST', headers: asOperator })).json().data.key as string;
  return { id, bearer: { authorization: `Bearer sk-${key}` } };
}

/** `GET /v1/models` with the token, when its answer arrived, and the worker that answered it (from its log line, which may come later). */
async function models(bearer: { authorization: string }): Promise<{ answer: HttpAnswer; at: number; pid: number }> {
  const id = nextId('models');
  const answer = await httpCall(`${base}/v1/models`, { headers: { ...bearer, 'x-request-id': id } });
  const at = Date.now();
  const [pid] = await answeringPids(gateway, [id]);
  return { answer, at, pid: pid as number };
}

/** Calls `/v1/models` until every worker has answered 200 once: each holds the token in its cache. */
async function cacheInEveryWorker(bearer: { authorization: string }): Promise<void> {
  const seen = new Set<number>();
  for (let round = 0; seen.size < workerPids.length; round += 1) {
    if (round === 50) throw new Error(`only workers ${[...seen].join(', ')} of ${workerPids.join(', ')} answered in 50 rounds`);
    const answers = await Promise.all([models(bearer), models(bearer)]);
    for (const { answer, pid } of answers) if (answer.status === 200) seen.add(pid);
  }
}

/**
 * Disables the token through the management API, then asks until every worker refuses it;
 * resolves with how long after the disable each worker first refused it (Infinity: not in 5 s).
 */
async function disableAndTimeRefusals(token: { id: number; bearer: { authorization: string } }): Promise<Map<number, number>> {
  const sent = Date.now();
  const disabled = await httpCall(`${base}/api/token/?status_only=true`, { method: 'PUT', headers: asOperator, body: { id: token.id, status: 2 } });
  if (disabled.json().success !== true) throw new Error(`not disabled: ${disabled.body}`);
  t.comment(`the disable was answered ${Date.now() - sent} ms after it was sent`);
  const refusedAfter = new Map<number, number>(workerPids.map((pid) => [pid, Infinity]));
  while ([...refusedAfter.values()].includes(Infinity) && Date.now() - sent < 5000) {
    for (const { answer, at, pid } of await Promise.all([models(token.bearer), models(token.bearer)])) {
      if (answer.status === 401 && answer.json().error.code === 'token_disabled' && refusedAfter.get(pid) === Infinity) refusedAfter.set(pid, at - sent);
    }
  }
  return refusedAfter;
}

interface Balance {
  status: number;
  remain_quota: number;
  used_quota: number;
}

const balanceOf = async (id: number): Promise<Balance> => {
  const { status, remain_quota, used_quota } = (await httpCall(`${base}/api/token/${id}`, { headers: asOperator })).json().data as Balance;
  return { status, remain_quota, used_quota };
};

/** Reads the balance until `done` holds (settlement runs once each answer is sent) or 5 s pass. */
async function settledBalance(id: number, done: (balance: Balance) => boolean): Promise<Balance> {
  let balance = await balanceOf(id);
  for (const until = Date.now() + 5000; !done(balance) && Date.now() < until; await sleep(20)) balance = await balanceOf(id);
  return balance;
}

const chatCalls = () => upstream.requests.filter((request) => request.path === '/v1/chat/completions').length;
const chat = (bearer: { authorization: string }, id: string) =>
  httpCall(`${base}/v1/chat/completions`, { headers: { ...bearer, 'x-request-id': id }, body: { model: 'gp-mini', messages: [{ role: 'user', content: id }] } });

t.test('two workers on one SQLite file', async (t) => {
  t.test('both serve requests, each in a process of its own beside the primary', async (t) => {
    t.equal(new Set(workerPids).size, 2, 'two worker processes');
    t.notOk(workerPids.includes(primaryPid), 'the primary serves nothing itself');
    const ids = Array.from({ length: 12 }, () => nextId('share'));
    const answers = await Promise.all(ids.map((id) => httpCall(`${base}/api/token/`, { headers: { ...asOperator, 'x-request-id': id } })));
    t.same(answers.map((answer) => answer.status), ids.map(() => 200), 'every request is answered');
    t.same(new Set(await answeringPids(gateway, ids)), new Set(workerPids), 'by both workers');
  });

  t.test('a token disabled through the management API is refused by every worker within 1 s', async (t) => {
    const token = await issueToken({ unlimited_quota: true });
    await cacheInEveryWorker(token.bearer);
    const refusedAfter = await disableAndTimeRefusals(token);
    for (const [pid, milliseconds] of refusedAfter) t.ok(milliseconds < 1000, `worker ${pid} refuses it ${milliseconds} ms after the disable was sent`);
  });

  t.test('300 concurrent requests against a quota that fits 30: exactly 30 succeed, billed exactly, never below 0', async (t) => {
    const startingQuota = 30 * unitsPerCall;
    const token = await issueToken({ remain_quota: startingQuota });
    await cacheInEveryWorker(token.bearer);
    const callsBefore = chatCalls();
    const ids = Array.from({ length: 300 }, () => nextId('quota'));
    const answers = await Promise.all(ids.map((id) => chat(token.bearer, id)));
    const statuses = answers.map((answer) => answer.status);
    const succeeded = statuses.filter((status) => status === 200).length;
    t.equal(succeeded, 30, 'exactly the 30 that fit succeed');
    t.same(statuses.filter((status) => status !== 200 && status !== 402 && status !== 429), [], 'the others are refused with 402 or 429');
    const pids = await answeringPids(gateway, ids);
    t.same(new Set(pids), new Set(workerPids), 'both workers took requests');
    t.comment(`successes per worker: ${workerPids.map((pid) => pids.filter((answeredBy, index) => answeredBy === pid && statuses[index] === 200).length).join(', ')}`);
    t.equal(chatCalls() - callsBefore, succeeded, 'only the requests that fitted reached the upstream');

    const balance = await settledBalance(token.id, (current) => current.used_quota === succeeded * unitsPerCall && current.status === 4);
    t.ok(balance.remain_quota >= 0, `remain_quota never below 0 (${balance.remain_quota})`);
    t.equal(balance.used_quota, succeeded * unitsPerCall, 'each success is charged once');
    t.equal(balance.used_quota + balance.remain_quota, startingQuota, 'used_quota + remain_quota is the starting quota');
    t.equal(balance.status, 4, 'the spent token is stored as exhausted');
  });

  t.test('200 concurrent requests against a hard daily budget that fits 20, across both workers: exactly 20 succeed and the day counts exactly them', async (t) => {
    const token = await issueToken({ unlimited_quota: true, budget_daily: 20 * unitsPerCall });
    await cacheInEveryWorker(token.bearer);
    const ids = Array.from({ length: 200 }, () => nextId('budget'));
    const answers = await Promise.all(ids.map((id) => chat(token.bearer, id)));
    const statuses = answers.map((answer) => answer.status);
    t.equal(statuses.filter((status) => status === 200).length, 20, 'exactly the 20 that fit succeed');
    t.ok(
      answers.filter((answer) => answer.status !== 200).every((answer) => answer.status === 429 && answer.json().error.code === 'budget_exceeded'),
      'the others are refused with 429 budget_exceeded',
    );
    const pids = await answeringPids(gateway, ids);
    t.same(new Set(pids), new Set(workerPids), 'both workers took requests');
    let budget: { used: number; remain: number } | undefined;
    for (const until = Date.now() + 5000; Date.now() < until; await sleep(20)) {
      budget = (await httpCall(`${base}/api/token/${token.id}`, { headers: asOperator })).json().data.budgets[0];
      if (budget?.used === 20 * unitsPerCall && (await balanceOf(token.id)).used_quota === 20 * unitsPerCall) break;
    }
    t.match(budget, { used: 20 * unitsPerCall, remain: 0 }, 'the window counts the 20 charges, nothing more');
  });

  t.test('under concurrent load across both workers no request fails on a busy database', async (t) => {
    const requests = 1200;
    const connections = 48;
    const startingQuota = requests * unitsPerCall + 5 * unitsPerCall;
    const token = await issueToken({ name: 'load-on-record', remain_quota: startingQuota });
    const ids = Array.from({ length: requests }, () => nextId('load'));
    const statuses: number[] = [];
    let next = 0;
    // Every chat request reserves and settles (two IMMEDIATE transactions), and the management
    // calls beside them write records, so both workers keep writing to the file at once.
    const chatLoops = Array.from({ length: connections }, async () => {
      while (next < requests) {
        const id = ids[next++] as string;
        statuses.push((await chat(token.bearer, id)).status);
      }
    });
    const managementLoop = (async () => {
      const made: number[] = [];
      while (next < requests) made.push((await httpCall(`${base}/api/token/`, { headers: asOperator, body: { name: `beside-load-${made.length}`, remain_quota: 10 } })).status);
      return made;
    })();
    await Promise.all(chatLoops);
    const managementStatuses = await managementLoop;
    t.same(statuses.filter((status) => status !== 200), [], `all ${requests} model requests succeed`);
    t.ok(managementStatuses.length > 0, `${managementStatuses.length} tokens were created meanwhile`);
    t.same(managementStatuses.filter((status) => status !== 200), [], 'and every token creation succeeded');
    const pids = await answeringPids(gateway, ids);
    t.same(new Set(pids), new Set(workerPids), `both workers served (${workerPids.map((pid) => pids.filter((answeredBy) => answeredBy === pid).length).join(' and ')} requests)`);
    const balance = await settledBalance(token.id, (current) => current.used_quota === requests * unitsPerCall);
    t.same({ remain_quota: balance.remain_quota, used_quota: balance.used_quota }, { remain_quota: 5 * unitsPerCall, used_quota: requests * unitsPerCall }, 'every request billed once');
    // Each worker writes its requests' usage records to the one file in its own batches.
    const stat = async () => (await httpCall(`${base}/api/log/self/stat?token_name=load-on-record`, { headers: asOperator })).json().data;
    let recorded = await stat();
    for (const until = Date.now() + 5000; recorded.requests < requests && Date.now() < until; await sleep(50)) recorded = await stat();
    t.same(recorded, { quota: requests * unitsPerCall, requests, prompt_tokens: recorded.prompt_tokens, completion_tokens: recorded.completion_tokens }, 'every request is on record once, with its charge');
    const storageTrouble = gateway.entries().filter((entry) => /SQLITE_BUSY|database is locked|storage is unavailable/.test(JSON.stringify(entry)));
    t.same(storageTrouble, [], 'no log line reports a busy or unavailable database');
  });

  t.test('a replacement worker starts without the tokens disabled while it was down, and hears of later changes', async (t) => {
    const disabledMeanwhile = await issueToken({ unlimited_quota: true });
    const later = await issueToken({ unlimited_quota: true });
    await cacheInEveryWorker(disabledMeanwhile.bearer);
    await cacheInEveryWorker(later.bearer);
    const [killed, survivor] = workerPids as [number, number];
    process.kill(killed, 'SIGKILL');
    await gateway.waitForLog(/^a worker exited unexpectedly; starting a replacement$/, { where: (entry) => entry.workerPid === killed });
    // Only the survivor serves now; the replacement cannot hear of this change.
    const disabled = await httpCall(`${base}/api/token/?status_only=true`, { method: 'PUT', headers: asOperator, body: { id: disabledMeanwhile.id, status: 2 } });
    t.equal(disabled.json().success, true);
    const replacement = await gateway.waitForLog(/^worker listening$/, { where: (entry) => entry.workerPid !== killed && entry.workerPid !== survivor });
    workerPids = [survivor, replacement.workerPid as number];

    const seen = new Map<number, number>();
    for (let round = 0; seen.size < 2 && round < 50; round += 1) {
      for (const { answer, pid } of await Promise.all([models(disabledMeanwhile.bearer), models(disabledMeanwhile.bearer)])) seen.set(pid, answer.status);
    }
    t.same(Object.fromEntries(seen), Object.fromEntries(workerPids.map((pid) => [pid, 401])), 'both workers refuse the token disabled while one was down');

    await cacheInEveryWorker(later.bearer);
    const refusedAfter = await disableAndTimeRefusals(later);
    for (const [pid, milliseconds] of refusedAfter) t.ok(milliseconds < 1000, `worker ${pid} refuses a token disabled later ${milliseconds} ms after the disable was sent`);
  });

  t.test('SIGTERM stops both workers and the primary, which exits 0', async (t) => {
    gateway.child.kill('SIGTERM');
    t.equal(await gateway.exited, 0);
    const stopped = gateway.entries().filter((entry) => entry.msg === 'stopped');
    t.same(new Set(stopped.map((entry) => entry.pid)), new Set([...workerPids, primaryPid]), 'every worker and the primary log "stopped"');
  });
});
