import { readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { firstWorkerStartsAlone, runCli } from '../../server/cli.js';
import { resolveWorkerCount } from '../../server/worker-count.js';
import { gatewayConfigSchema } from '../../core/config/config-schema.js';
import { isRunning, listeningUrl, startCliGateway, writeGatewayConfig, type CliGatewayProcess, type LogEntry } from '../helpers/cli-gateway-process.js';
import { httpCall } from '../helpers/http-call.js';
import { prometheusSample } from '../helpers/prometheus-sample.js';
import { tryConnect } from '../helpers/try-connect.js';
import { storageFor, testEncryptionKey } from '../helpers/test-config.js';


/** Runs the CLI in this process and keeps what it wrote. */
async function cli(argv: string[]): Promise<{ code: number; out: string; error: string }> {
  let out = '';
  let error = '';
  const code = await runCli(argv, { out: (text) => (out += text), error: (text) => (error += text) });
  return { code, out, error };
}

function writeYaml(t: Test, text: string): string {
  const file = join(t.testdir({}), 'gateway.yaml');
  writeFileSync(file, text);
  return file;
}

const lineOf = (text: string, needle: string) => text.split('\n').findIndex((line) => line.includes(needle)) + 1;

t.test('server.workers and the storage driver', async (t) => {
  const sqliteYaml = (workers: string) => `server:
  port: 0
  workers: ${workers}
storage:
  driver: sqlite
  path: /tmp/unused-workers-test.sqlite
security:
  encryption_key: ${testEncryptionKey}
`;

  t.test('config check accepts several workers, or "auto", on sqlite', async (t) => {
    for (const workers of ['2', 'auto']) {
      const result = await cli(['config', 'check', '--config', writeYaml(t, sqliteYaml(workers))]);
      t.equal(result.code, 0, `workers: ${workers}: ${result.error}`);
    }
  });

  t.test('config check refuses more than one worker on memory, says why and what to use, and names the line', async (t) => {
    const text = `server: { workers: 4 }\nstorage: { driver: memory }\n`;
    const file = writeYaml(t, text);
    const result = await cli(['config', 'check', '--config', file]);
    t.equal(result.code, 1);
    t.equal(result.out, '');
    t.equal(
      result.error,
      `${file}: 1 problem\nserver.workers: more than one worker needs storage.driver sqlite, redis or postgres: with memory, each worker would have a memory store of its own; use sqlite, redis or postgres, or set workers to 1 (line ${lineOf(text, 'workers:')})\n`,
    );
  });

  t.test('start refuses it the same way with exit 1, and "auto" counts as several, so the answer does not depend on the machine', async (t) => {
    const result = await cli(['start', '--config', writeYaml(t, `server:\n  port: 0\n  workers: auto\nstorage:\n  driver: memory\n`)]);
    t.equal(result.code, 1);
    t.match(result.error, /^.*: 1 problem\nserver\.workers: more than one worker needs storage\.driver sqlite, redis or postgres: with memory, .*use sqlite, redis or postgres, or set workers to 1 \(line 3\)/);
  });

  t.test('one worker on memory, and any number on redis or postgres, pass', async (t) => {
    t.equal((await cli(['config', 'check', '--config', writeYaml(t, `server: { workers: 1 }\nstorage: { driver: memory }\n`)])).code, 0);
    for (const storage of ['{ driver: redis, url: "redis://127.0.0.1:6379" }', '{ driver: postgres, url: "postgres://127.0.0.1:5432/test" }']) {
      const yaml = `server: { workers: auto }\nstorage: ${storage}\nsecurity: { encryption_key: ${testEncryptionKey} }\n`;
      const result = await cli(['config', 'check', '--config', writeYaml(t, yaml)]);
      t.equal(result.code, 0, `${storage}: ${result.error}`);
    }
  });

  t.test('a workers value that is not a count or "auto" is named by its path', async (t) => {
    const result = await cli(['config', 'check', '--config', writeYaml(t, 'server:\n  workers: many\n')]);
    t.equal(result.code, 1);
    t.match(result.error, /server\.workers: expected a number of worker processes \(1 or more\) or "auto" \(line 2\)/);
    const zero = await cli(['config', 'check', '--config', writeYaml(t, 'server:\n  workers: 0\n')]);
    t.match(zero.error, /server\.workers: expected at least 1 \(line 2\)/);
  });

  t.test('the first worker starts alone when it may create the first admin or the encryption key file', async (t) => {
    const config = (users: unknown[], encryptionKey: string) => gatewayConfigSchema.parse({ users, security: { encryption_key: encryptionKey } });
    const operator = { id: 1, username: 'operator', login_token: 'mgu_configured' };
    t.equal(firstWorkerStartsAlone(config([operator], testEncryptionKey)), false, 'a user and a key configured: all start at once');
    t.equal(firstWorkerStartsAlone(config([operator], '')), true, 'no key: the first generates the key file');
    t.equal(firstWorkerStartsAlone(config([], testEncryptionKey)), true, 'no user: the first may create the admin');
  });

  t.test('"auto" is one worker per CPU the process may use', async (t) => {
    t.equal(resolveWorkerCount('auto', 6), 6);
    t.equal(resolveWorkerCount(3, 6), 3);
  });
});

const sample = prometheusSample;

const healthzCount = (text: string) => sample(text, 'gateway_http_requests_total', { method: 'GET', route: '/healthz', status: '200' });

/** The pid of the worker that answered each request id, from its "request answered" log line. */
async function answeringPids(gateway: CliGatewayProcess, requestIds: readonly string[]): Promise<number[]> {
  const wanted = new Set(requestIds);
  const entries = await gateway.waitForLogs(/^request answered$/, requestIds.length, { where: (entry) => wanted.has(entry.reqId as string) });
  return entries.map((entry) => entry.pid);
}

t.test('two workers on redis', async (t) => {
  const storage = storageFor(t, 'redis');
  const file = writeGatewayConfig(t, {
    server: { host: '127.0.0.1', port: 0, shutdown_grace_ms: 5000, workers: 2 },
    storage,
    security: { encryption_key: testEncryptionKey },
  });
  const gateway = startCliGateway(t, file);
  const listening = await gateway.waitForLogs(/^Server listening at /, 2);
  const ready = await gateway.waitForLog(/^every worker is listening$/);
  const loginToken = readFileSync(join(storage.data_dir, 'admin-login-token'), 'utf8').trim();
  const asOperator = { authorization: `Bearer ${loginToken}` };
  const primaryPid = ready.pid;
  const base = listeningUrl(listening[0] as LogEntry);
  const port = Number(new URL(base).port);
  let workerPids = listening.map((entry) => entry.pid);

  t.test('listen on one port, each in a process of its own beside the primary', async (t) => {
    t.equal(new Set(workerPids).size, 2, 'two worker processes');
    t.notOk(workerPids.includes(primaryPid), 'the primary serves nothing itself');
    t.same(new Set(listening.map(listeningUrl)), new Set([base]), 'both listen at the same address');
    t.same(listening.map((entry) => typeof entry.worker), ['number', 'number'], 'worker log lines carry the worker id');
  });

  t.test('create one first admin between them, whose login token both accept', async (t) => {
    t.equal(gateway.entries().filter((entry) => entry.msg.startsWith('created the first admin user')).length, 1, 'one worker created it');
    const ids = ['admin-0', 'admin-1', 'admin-2', 'admin-3'];
    const answers = await Promise.all(ids.map((id) => httpCall(`${base}/api/token/`, { headers: { ...asOperator, 'x-request-id': id } })));
    t.same(answers.map((answer) => answer.status), [200, 200, 200, 200]);
    t.same(new Set(await answeringPids(gateway, ids)), new Set(workerPids), 'in both workers');
  });

  t.test('share the requests of new connections', async (t) => {
    const ids = Array.from({ length: 12 }, (_, index) => `share-${index}`);
    const answers = await Promise.all(ids.map((id) => httpCall(`${base}/api/token/`, { headers: { ...asOperator, 'x-request-id': id } })));
    t.same(answers.map((answer) => answer.status), ids.map(() => 200), 'every request is answered');
    t.same(new Set(await answeringPids(gateway, ids)), new Set(workerPids), 'by both workers');
  });

  let scrapes = 0;
  /** One scrape of /metrics on a connection of its own, and the pid of the worker that took it. */
  const scrape = async () => {
    const id = `scrape-${scrapes++}`;
    const answer = await httpCall(`${base}/metrics`, { headers: { 'x-request-id': id } });
    const [pid] = await answeringPids(gateway, [id]);
    return { ...answer, pid: pid as number };
  };

  t.test('answer /metrics for every worker together, whichever worker takes the scrape', async (t) => {
    const ids = Array.from({ length: 10 }, (_, index) => `counted-${index}`);
    const answers = await Promise.all(ids.map((id) => httpCall(`${base}/healthz`, { headers: { 'x-request-id': id } })));
    t.same(answers.map((answer) => answer.status), ids.map(() => 200));
    t.same(new Set(await answeringPids(gateway, ids)), new Set(workerPids), 'the requests were spread over both workers');

    const results = [];
    for (let round = 0; round < 6; round += 1) results.push(await scrape());
    t.same(results.map((result) => result.status), results.map(() => 200), 'every scrape is answered');
    t.match(results[0]?.headers['content-type'], /^text\/plain; version=0\.0\.4/);
    t.same(new Set(results.map((result) => result.pid)), new Set(workerPids), 'by both workers');
    t.same(results.map((result) => healthzCount(result.body)), results.map(() => 10), 'each scrape counts all 10 requests');
    t.same(results.map((result) => sample(result.body, 'gateway_http_request_duration_seconds_count', { method: 'GET', route: '/healthz' })), results.map(() => 10), 'and so does the latency histogram');
    const scrapesCounted = results.map((result) => sample(result.body, 'gateway_http_requests_total', { route: '/metrics', status: '200' }) ?? 0);
    t.ok(scrapesCounted.every((count, index) => index === 0 || count >= (scrapesCounted[index - 1] as number)), `the scrape counter never goes backwards (${scrapesCounted.join(', ')})`);
    t.ok((scrapesCounted.at(-1) as number) >= results.length - 2, 'and counts the scrapes of both workers');
    const text = results[0]?.body ?? '';
    t.equal(text.split('\n').filter((line) => line.startsWith('gateway_nodejs_version_info{')).length, 1, 'no series per worker');
    t.ok((sample(text, 'gateway_process_resident_memory_bytes') ?? 0) > 0, 'process metrics are there');
  });

  t.test('answer 503 while a worker does not answer the primary, then every worker again', async (t) => {
    const [frozen] = workerPids as [number, number];
    process.kill(frozen, 'SIGSTOP');
    const ids = ['frozen-0', 'frozen-1', 'frozen-2'];
    let answers;
    try {
      const pending = ids.map((id) => httpCall(`${base}/metrics`, { headers: { 'x-request-id': id } }));
      // Only the worker still running can answer while the other is stopped.
      const first = await Promise.race(pending);
      t.equal(first.status, 503, 'a failed scrape rather than part of the counts');
      t.match(first.headers['content-type'], /^text\/plain/);
      t.match(first.body, /^# the metrics of every worker could not be collected: worker \d+ did not answer within 4000 ms\n$/);
      answers = pending;
    } finally {
      process.kill(frozen, 'SIGCONT');
    }
    for (const answer of await Promise.all(answers)) {
      if (answer.status === 200) t.equal(healthzCount(answer.body), 10, 'an answer is whole or none');
      else t.equal(answer.status, 503);
    }
    const warning = await gateway.waitForLog(/^could not collect every worker's metrics; answering 503$/);
    t.match(warning.problem, /did not answer within 4000 ms/, 'the worker logs why');
    const after = await scrape();
    t.equal(after.status, 200, 'once the worker answers again, so does /metrics');
    t.equal(healthzCount(after.body), 10);
  });

  t.test('refuse a token in every worker within 1 s of one of them disabling it', async (t) => {
    await httpCall(`${base}/api/token/`, { headers: asOperator, body: { name: 'shared', unlimited_quota: true } });
    const id = (await httpCall(`${base}/api/token/?size=1`, { headers: asOperator })).json().data.items[0].id as number;
    const key = (await httpCall(`${base}/api/token/${id}/key`, { method: 'POST', headers: asOperator })).json().data.key as string;
    const models = (requestId: string) => httpCall(`${base}/v1/models`, { headers: { authorization: `Bearer sk-${key}`, 'x-request-id': requestId } });
    const warm = ['warm-0', 'warm-1', 'warm-2', 'warm-3'];
    t.same((await Promise.all(warm.map(models))).map((answer) => answer.status), [200, 200, 200, 200]);
    t.same(new Set(await answeringPids(gateway, warm)), new Set(workerPids), 'both workers have the token cached');

    const sent = Date.now();
    const disabled = await httpCall(`${base}/api/token/?status_only=true`, { method: 'PUT', headers: asOperator, body: { id, status: 2 } });
    t.equal(disabled.json().success, true);
    const refusedBy = new Set<number>();
    for (let round = 0; refusedBy.size < 2 && Date.now() - sent < 1000; round += 1) {
      const ids = [`after-${round}-a`, `after-${round}-b`];
      const answers = await Promise.all(ids.map(models));
      const pids = await answeringPids(gateway, ids);
      answers.forEach((answer, index) => answer.status === 401 && refusedBy.add(pids[index] as number));
    }
    t.same(refusedBy, new Set(workerPids), `both refuse it (${Date.now() - sent} ms after the disable was sent)`);
  });

  t.test('replace a worker that dies', async (t) => {
    const [killed, survivor] = workerPids as [number, number];
    const beforeDeath = await scrape();
    t.equal(healthzCount(beforeDeath.body), 10, 'a scrape before the death');
    process.kill(killed, 'SIGKILL');
    const exit = await gateway.waitForLog(/^a worker exited unexpectedly; starting a replacement$/, { where: (entry) => entry.workerPid === killed });
    t.equal(exit.signal, 'SIGKILL', 'the primary logs how it died');
    const whileReplacing = await scrape();
    t.equal(whileReplacing.status, 200, 'a scrape before the replacement listens is answered');
    t.equal(healthzCount(whileReplacing.body), 10, "and still counts what the dead worker had counted: the total does not go backwards");
    const replacement = await gateway.waitForLog(/^worker listening$/, { where: (entry) => entry.workerPid !== killed && entry.workerPid !== survivor });
    workerPids = [survivor, replacement.workerPid as number];
    const ids = Array.from({ length: 8 }, (_, index) => `replaced-${index}`);
    const answers = await Promise.all(ids.map((id) => httpCall(`${base}/healthz`, { headers: { 'x-request-id': id } })));
    t.same(answers.map((answer) => answer.status), ids.map(() => 200), 'the port keeps answering');
    t.same(new Set(await answeringPids(gateway, ids)), new Set(workerPids), 'the survivor and the replacement share the requests');
    const afterReplacement = [await scrape(), await scrape()];
    t.same(new Set(afterReplacement.map((result) => result.pid)), new Set(workerPids), 'scraped through the survivor and the replacement');
    t.same(afterReplacement.map((result) => healthzCount(result.body)), [18, 18], "the dead worker's requests, plus the 8 since");
  });

  t.test('SIGTERM to the primary lets the request in flight finish, stops every worker and exits 0', async (t) => {
    const body = JSON.stringify({ name: 'made while stopping' });
    const inFlight = request(`${base}/api/token/`, {
      method: 'POST',
      agent: false,
      headers: { ...asOperator, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-request-id': 'in-flight', expect: '100-continue' },
    });
    // A worker answers `100 Continue` as it hands the request to the gateway.
    const taken = new Promise((resolve) => inFlight.once('continue', resolve));
    const finished = new Promise<{ status: number; body: string }>((resolve, reject) => {
      inFlight.on('error', reject);
      inFlight.on('response', (incoming) => {
        let text = '';
        incoming.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body: text }));
      });
    });
    inFlight.flushHeaders();
    await taken;
    inFlight.write(body.slice(0, 5));

    gateway.child.kill('SIGTERM');
    await gateway.waitForLog(/^stopping: asking every worker to finish its requests$/);
    const stopping = await gateway.waitForLogs(/^stopping: no new connections/, 2);
    t.same(new Set(stopping.map((entry) => entry.pid)), new Set(workerPids), 'each worker stops accepting');
    t.equal(gateway.child.exitCode, null, 'the primary waits for the request in flight');

    inFlight.end(body.slice(5));
    const answer = await finished;
    t.equal(answer.status, 200, 'the request in flight completes');
    t.same(JSON.parse(answer.body), { success: true, message: '' });
    t.equal(await gateway.exited, 0, 'the primary exits 0');
    const stopped = gateway.entries().filter((entry) => entry.msg === 'stopped');
    t.same(new Set(stopped.map((entry) => entry.pid)), new Set([...workerPids, primaryPid]), 'every worker and the primary log "stopped"');
    t.same(workerPids.filter(isRunning), [], 'no worker is left running');
    t.equal(await tryConnect(port), 'ECONNREFUSED', 'nothing listens afterwards');
    t.notOk(gateway.entries().some((entry) => JSON.stringify(entry).includes(loginToken)), 'the login token never appears in the log');
  });
});
