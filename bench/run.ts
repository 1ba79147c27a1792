/**
 * `npm run bench`: starts the built gateway as its own process (SQLite driver, a temporary
 * data directory) and loads it over loopback with an undici pool. Scenarios run in
 * interleaved rounds, so background noise on a shared machine falls on all of them alike;
 * the report gives per-scenario medians over rounds and ratios to the cheapest route.
 *
 * Options: --seconds N (per round, default 5), --rounds N (default 3), --connections N (default 32).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';

interface Scenario {
  name: string;
  path: string;
  headers: Record<string, string>;
}

interface RoundResult {
  requestsPerSecond: number;
  p50Milliseconds: number;
  p99Milliseconds: number;
  errors: number;
}

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '5' }, rounds: { type: 'string', default: '3' }, connections: { type: 'string', default: '32' } },
});
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const connections = Number(values.connections);

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

const median = (numbers: number[]) => {
  const sorted = [...numbers].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

async function waitForHealth(pool: Pool): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    try {
      const response = await pool.request({ method: 'GET', path: '/healthz' });
      await response.body.dump();
      if (response.statusCode === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the gateway did not become healthy');
}

async function json(pool: Pool, method: 'GET' | 'POST', path: string, headers: Record<string, string>, body?: unknown): Promise<any> {
  const response = await pool.request({ method, path, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  return response.body.json();
}

async function runRound(pool: Pool, scenario: Scenario, durationMilliseconds: number): Promise<RoundResult> {
  const latencies: number[] = [];
  let errors = 0;
  const deadline = Date.now() + durationMilliseconds;
  const worker = async () => {
    while (Date.now() < deadline) {
      const started = process.hrtime.bigint();
      try {
        const response = await pool.request({ method: 'GET', path: scenario.path, headers: scenario.headers });
        await response.body.dump();
        if (response.statusCode !== 200) errors += 1;
      } catch {
        errors += 1;
      }
      latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: connections }, worker));
  const elapsed = (Date.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requestsPerSecond: latencies.length / elapsed,
    p50Milliseconds: latencies[Math.floor(latencies.length * 0.5)] ?? 0,
    p99Milliseconds: latencies[Math.floor(latencies.length * 0.99)] ?? 0,
    errors,
  };
}

function residentMegabytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /VmRSS:\s+(\d+) kB/.exec(status);
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

async function main(): Promise<void> {
  const directory = mkdtempSync(join(tmpdir(), 'model-gateway-bench-'));
  const port = await freePort();
  const loginToken = 'mgu_benchmarkbenchmarkbenchmarkbenchmark0000';
  const configFile = join(directory, 'gateway.yaml');
  writeFileSync(
    configFile,
    `server: { port: ${port} }
storage: { driver: sqlite, data_dir: ${JSON.stringify(directory)}, path: ${JSON.stringify(join(directory, 'gateway.sqlite'))} }
users: [{ id: 1, username: bench, login_token: ${loginToken} }]
providers:
  - { name: gx-main, plugin: gx, base_url: "http://127.0.0.1:9", api_key: unused, models: [gx-2.5-pro, gx-2.5-flash] }
`,
  );
  const server = spawn(process.execPath, ['dist/core/main.js', 'start', '--config', configFile], {
    env: { ...process.env, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections });
  try {
    await waitForHealth(pool);
    const management = { authorization: `Bearer ${loginToken}` };
    await json(pool, 'POST', '/api/token/', management, { name: 'bench', unlimited_quota: true });
    const listed = await json(pool, 'GET', '/api/token/', management);
    const id = listed.data.items[0].id as number;
    const revealed = await json(pool, 'POST', `/api/token/${id}/key`, management);
    if (revealed.success !== true) throw new Error(`could not reveal the key: ${JSON.stringify(revealed)}`);
    const apiKey = `sk-${revealed.data.key as string}`;
    const scenarios: Scenario[] = [
      { name: 'GET /healthz (no auth)', path: '/healthz', headers: {} },
      { name: 'GET /v1/models (API-key auth, cached)', path: '/v1/models', headers: { authorization: `Bearer ${apiKey}` } },
      { name: 'GET /api/token/:id (login auth + SQLite reads)', path: `/api/token/${id}`, headers: management },
    ];
    const idleMegabytes = residentMegabytes(server.pid as number);
    await runRound(pool, scenarios[1] as Scenario, 1000);
    const results = new Map<string, RoundResult[]>(scenarios.map((scenario) => [scenario.name, []]));
    for (let round = 0; round < rounds; round += 1) {
      for (const scenario of scenarios) results.get(scenario.name)?.push(await runRound(pool, scenario, seconds * 1000));
    }
    const loadedMegabytes = residentMegabytes(server.pid as number);
    const baseline = median((results.get(scenarios[0]?.name as string) ?? []).map((result) => result.requestsPerSecond));
    const cpu = cpus()[0]?.model ?? 'unknown CPU';
    console.log(`\nModel Gateway benchmark: ${new Date().toISOString()}`);
    console.log(`machine: ${cpus().length} × ${cpu}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`);
    console.log(`load: ${connections} connections over loopback, ${rounds} interleaved rounds of ${seconds} s each; medians over rounds\n`);
    console.log('| scenario | requests/s | ratio to /healthz | p50 ms | p99 ms | errors |');
    console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
    for (const scenario of scenarios) {
      const list = results.get(scenario.name) ?? [];
      const requestsPerSecond = median(list.map((result) => result.requestsPerSecond));
      console.log(
        `| ${scenario.name} | ${requestsPerSecond.toFixed(0)} | ${(requestsPerSecond / baseline).toFixed(2)} | ${median(list.map((r) => r.p50Milliseconds)).toFixed(2)} | ${median(list.map((r) => r.p99Milliseconds)).toFixed(2)} | ${list.reduce((sum, r) => sum + r.errors, 0)} |`,
      );
    }
    console.log(`\ngateway RSS: ${idleMegabytes.toFixed(0)} MiB idle, ${loadedMegabytes.toFixed(0)} MiB after load`);
  } finally {
    await pool.close();
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    rmSync(directory, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
