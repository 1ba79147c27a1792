/**
 * `npm run bench`: the gateway against a fast fake gx upstream and against a bare proxy, on
 * one machine. Three targets, each a process of its own so its memory can be read and the
 * cores are shared by the operating system:
 *
 * - direct: the fast fake upstream itself (`bench/fast-gx-upstream.ts`), native gx requests;
 * - gateway: the built gateway on SQLite with auth, quota and routing, `POST
 *   /v1/chat/completions` translated to gx and back;
 * - proxy: a bare undici pass-through (`bench/pass-through-proxy.ts`) in front of the same
 *   fake, sent the native requests the gateway would send.
 *
 * autocannon loads each in turn (this process) with fixed connections for a fixed time, in
 * interleaved rounds so background noise falls on all targets alike; figures are medians
 * over rounds. Then the gateway is loaded until it has answered `--soak-requests` in all,
 * and its resident memory is read.
 *
 * A quick tool, not the figures the gateway is judged by: those come from
 * `bench/side-by-side/bench.sh` ({@link differenceFromBenchSh} says how they differ).
 *
 * Options: --quick (a short run), --seconds N per run (8; quick 2), --rounds N (2; quick 1),
 * --connections N for the loaded runs (50), --soak-requests N (100000; quick 20000),
 * --gateway-log-level L (info, the production default: one line per request; warn: none),
 * --storage sqlite|memory (sqlite; memory shows what the store costs), --usage-log on|off
 * (on; off shows what the usage log costs),
 * --management (also the older management and auth routes), --profile (run the gateway
 * under `node --cpu-prof` and print its top self-time functions).
 *
 * `--soak` runs the soak instead (`bench/soak.ts`): `--soak-streams` (1000) paced streams held
 * open at once for `--soak-seconds` (60), upstream events 250 ms apart; nothing may be
 * dropped, the gateway's memory must plateau and come back near idle afterwards.
 */
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readSync, rmSync } from 'node:fs';
import { cpus, loadavg, release, tmpdir, totalmem, type as osType } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { benchUpstreamKey, chatCompletionBody, nativeGenerateBody, nativeGeneratePath } from './bench-workload.js';
import { measureLoad, type LoadRequest, type LoadResult } from './measure-load.js';
import { processMemory } from './process-memory.js';
import { startGatewayProcess, type GatewayProcess } from './start-gateway-process.js';
import { startListeningProgram, type ServerProcess } from './start-listening-program.js';
import { summarizeCpuProfile } from './summarize-cpu-profile.js';
import { everyNth, plateaued, runSoak } from './soak.js';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    seconds: { type: 'string' },
    rounds: { type: 'string' },
    connections: { type: 'string', default: '50' },
    'soak-requests': { type: 'string' },
    'gateway-log-level': { type: 'string', default: 'info' },
    storage: { type: 'string', default: 'sqlite' },
    'usage-log': { type: 'string', default: 'on' },
    management: { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    soak: { type: 'boolean', default: false },
    'soak-streams': { type: 'string', default: '1000' },
    'soak-seconds': { type: 'string', default: '60' },
  },
});
const quick = values.quick === true;
const seconds = Number(values.seconds ?? (quick ? 2 : 8));
const rounds = Number(values.rounds ?? (quick ? 1 : 2));
const loadedConnections = Number(values.connections);
const soakRequests = Number(values['soak-requests'] ?? (quick ? 20_000 : 100_000));
if (values.storage !== 'sqlite' && values.storage !== 'memory') throw new Error('--storage takes sqlite or memory');
const storage = values.storage;
if (values['usage-log'] !== 'on' && values['usage-log'] !== 'off') throw new Error('--usage-log takes on or off');
const usageLog = values['usage-log'] === 'on';

/** The targets' labels, in the order each round visits them. */
const targetNames = ['direct', 'gateway', 'proxy'] as const;
type TargetName = (typeof targetNames)[number];
type Mode = 'non-stream' | 'stream';
const modes: Mode[] = ['non-stream', 'stream'];

/** Printed with the figures, so they are not read as bench.sh's. */
const differenceFromBenchSh =
  'These are not the judged figures of bench/side-by-side/bench.sh. There each target runs alone on one core ' +
  '(wrk and the upstream on the other) and the gateway is compared with a bare fastify proxy and Portkey, on the gx ' +
  'translation and the gp pass-through paths. Here autocannon runs in this process and every process shares every ' +
  'core, so absolute figures understate each target; only the gx translation path is measured, against a bare ' +
  'undici proxy. Compare within one run.';

/** Pass/fail thresholds of the brief. */
const targets = { addedLatencyMilliseconds: 1, throughputShareOfProxy: 0.7, residentMegabytes: 150 };

const median = (numbers: number[]): number => {
  const sorted = [...numbers].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

/** What one target is sent in one mode: the same work for the upstream in all three. */
function loadFor(target: TargetName, mode: Mode, servers: Record<TargetName, ServerProcess>, apiKey: string): Omit<LoadRequest, 'connections'> {
  const stream = mode === 'stream';
  if (target === 'gateway') {
    return { origin: servers.gateway.url, path: '/v1/chat/completions', headers: { authorization: `Bearer ${apiKey}` }, body: chatCompletionBody(stream) };
  }
  return { origin: servers[target].url, path: nativeGeneratePath(stream), headers: { 'x-gx-api-key': benchUpstreamKey }, body: nativeGenerateBody() };
}

/** One request per target and mode before any load, so a broken setup fails loudly instead of measuring errors. */
async function checkAnswers(servers: Record<TargetName, ServerProcess>, apiKey: string): Promise<void> {
  for (const mode of modes) {
    for (const target of targetNames) {
      const load = loadFor(target, mode, servers, apiKey);
      const response = await fetch(`${load.origin}${load.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...load.headers },
        body: load.body,
      });
      const text = await response.text();
      if (response.status !== 200 || !text.includes('gateway')) {
        throw new Error(`${target} (${mode}) answered ${response.status}: ${text.slice(0, 500)}`);
      }
    }
  }
}

const format = (value: number, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
const verdict = (passed: boolean) => (passed ? 'met' : 'MISSED');

async function main(): Promise<void> {
  const directory = mkdtempSync(join(tmpdir(), 'model-gateway-bench-'));
  // Other work on the machine skews every figure; the load average before the run says how much there was.
  const loadBefore = loadavg()[0] as number;
  const started: ServerProcess[] = [];
  try {
    const upstream = await startListeningProgram(new URL('./fast-gx-upstream.js', import.meta.url));
    started.push(upstream);
    const proxy = await startListeningProgram(new URL('./pass-through-proxy.js', import.meta.url), ['--upstream', upstream.url]);
    started.push(proxy);
    const gateway: GatewayProcess = await startGatewayProcess({
      upstreamUrl: upstream.url,
      directory,
      storage,
      logLevel: values['gateway-log-level'] as string,
      cpuProfile: values.profile === true,
      usageLog,
    });
    started.push(gateway);
    const servers: Record<TargetName, ServerProcess> = { direct: upstream, gateway, proxy };
    await checkAnswers(servers, gateway.apiKey);
    const idle = processMemory(gateway.pid);

    let gatewayRequests = 0;
    const run = async (target: TargetName, mode: Mode, connections: number, extra: Partial<LoadRequest>): Promise<LoadResult> => {
      const result = await measureLoad({ ...loadFor(target, mode, servers, gateway.apiKey), connections, ...extra });
      if (target === 'gateway') gatewayRequests += result.requests;
      return result;
    };

    process.stderr.write('warming up');
    for (const mode of modes) {
      for (const target of targetNames) {
        await run(target, mode, loadedConnections, { seconds: quick ? 1 : 2 });
        process.stderr.write('.');
      }
    }
    process.stderr.write('\n');

    const concurrencies = [1, loadedConnections];
    const results = new Map<string, LoadResult[]>();
    const key = (mode: Mode, connections: number, target: TargetName) => `${mode}|${connections}|${target}`;
    const runsInAll = rounds * modes.length * concurrencies.length * targetNames.length;
    let done = 0;
    for (let round = 0; round < rounds; round += 1) {
      for (const mode of modes) {
        for (const connections of concurrencies) {
          for (const target of targetNames) {
            const result = await run(target, mode, connections, { seconds });
            results.set(key(mode, connections, target), [...(results.get(key(mode, connections, target)) ?? []), result]);
            done += 1;
            process.stderr.write(`\r${done}/${runsInAll} runs`);
          }
        }
      }
    }
    process.stderr.write('\n');

    const afterRuns = processMemory(gateway.pid);
    const requestsAfterRuns = gatewayRequests;
    let soakMode = 0;
    while (gatewayRequests < soakRequests) {
      const remaining = Math.min(soakRequests - gatewayRequests, 25_000);
      await run('gateway', modes[soakMode % modes.length] as Mode, loadedConnections, { requests: remaining });
      soakMode += 1;
      process.stderr.write(`\rsoak: the gateway has answered ${gatewayRequests} requests`);
    }
    process.stderr.write('\n');
    const afterSoak = processMemory(gateway.pid);

    let managementRows: string[] = [];
    if (values.management === true) managementRows = await runManagementScenarios(gateway, seconds);

    const summary = (mode: Mode, connections: number, target: TargetName) => {
      const list = results.get(key(mode, connections, target)) ?? [];
      return {
        requestsPerSecond: median(list.map((result) => result.requestsPerSecond)),
        p50: median(list.map((result) => result.p50Milliseconds)),
        p99: median(list.map((result) => result.p99Milliseconds)),
        failures: list.reduce((sum, result) => sum + result.failures, 0),
      };
    };

    const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
    console.log(`\nModel Gateway benchmark: ${new Date().toISOString()}`);
    console.log(`machine: ${cpus().length} × ${cpu}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, ${osType()} ${release()}, Node ${process.version}`);
    console.log(
      `load: autocannon in this process; ${rounds} interleaved round(s) of ${seconds} s per run, medians over rounds; gateway on ${storage}, LOG_LEVEL=${values['gateway-log-level']}, usage log ${values['usage-log']}; 1-minute load average before the run: ${loadBefore.toFixed(2)}`,
    );
    console.log(`${differenceFromBenchSh}\n`);
    console.log('| mode | connections | target | requests/s | p50 ms | p99 ms | failures |');
    console.log('| --- | ---: | --- | ---: | ---: | ---: | ---: |');
    for (const mode of modes) {
      for (const connections of concurrencies) {
        for (const target of targetNames) {
          const row = summary(mode, connections, target);
          console.log(`| ${mode} | ${connections} | ${target} | ${row.requestsPerSecond.toFixed(0)} | ${format(row.p50)} | ${format(row.p99)} | ${row.failures} |`);
        }
      }
    }
    if (managementRows.length > 0) {
      console.log('\n| management and auth routes (gateway) | requests/s | p50 ms | p99 ms | failures |');
      console.log('| --- | ---: | ---: | ---: | ---: |');
      for (const row of managementRows) console.log(row);
    }

    console.log('\nTargets:');
    for (const mode of modes) {
      const added = summary(mode, 1, 'gateway').p50 - summary(mode, 1, 'direct').p50;
      const proxyAdded = summary(mode, 1, 'proxy').p50 - summary(mode, 1, 'direct').p50;
      console.log(
        `- ${mode}, 1 connection: the gateway adds ${format(added)} ms at p50 over direct (the bare proxy adds ${format(proxyAdded)} ms); target ≤ ${targets.addedLatencyMilliseconds} ms: ${verdict(added <= targets.addedLatencyMilliseconds)}`,
      );
    }
    for (const mode of modes) {
      const share = summary(mode, loadedConnections, 'gateway').requestsPerSecond / summary(mode, loadedConnections, 'proxy').requestsPerSecond;
      console.log(
        `- ${mode}, ${loadedConnections} connections: the gateway reaches ${(share * 100).toFixed(0)}% of the bare proxy's requests/s; target ≥ ${targets.throughputShareOfProxy * 100}%: ${verdict(share >= targets.throughputShareOfProxy)}`,
      );
    }
    console.log(
      `- gateway RSS after ${gatewayRequests} requests: ${format(afterSoak.residentMegabytes, 0)} MiB (${format(idle.residentMegabytes, 0)} MiB idle at start, ${format(afterRuns.residentMegabytes, 0)} MiB after the ${requestsAfterRuns} of the timed runs); target < ${targets.residentMegabytes} MiB: ${verdict(afterSoak.residentMegabytes < targets.residentMegabytes)}`,
    );
    console.log(
      `- gateway peak RSS over the whole run: ${format(afterSoak.peakResidentMegabytes, 0)} MiB; under ${targets.residentMegabytes} MiB throughout: ${verdict(afterSoak.peakResidentMegabytes < targets.residentMegabytes)}`,
    );
    const upstreamMemory = processMemory(upstream.pid);
    const proxyMemory = processMemory(proxy.pid);
    console.log(`  (for scale: fake upstream ${format(upstreamMemory.residentMegabytes, 0)} MiB, bare proxy ${format(proxyMemory.residentMegabytes, 0)} MiB)`);

    await Promise.all(started.splice(0).map((server) => server.stop()));
    if (values.profile === true) printProfile(directory);
  } finally {
    await Promise.all(started.map((server) => server.stop()));
    printGatewayErrors(directory);
    rmSync(directory, { recursive: true, force: true });
  }
}

/** Error-level lines the gateway logged, so a run with failures says why. */
function printGatewayErrors(directory: string): void {
  const file = join(directory, 'gateway.log');
  if (!existsSync(file)) return;
  // Only the head of the log: a run where every request failed writes hundreds of megabytes.
  const head = Buffer.alloc(8 * 1024 * 1024);
  const descriptor = openSync(file, 'r');
  const length = readSync(descriptor, head, 0, head.length, 0);
  closeSync(descriptor);
  const errors = head
    .subarray(0, length)
    .toString('utf8')
    .split('\n')
    .filter((line) => /"level":(50|60)/.test(line));
  if (errors.length === 0) return;
  console.log(`\nthe gateway logged ${errors.length} error line(s); the first:`);
  for (const line of errors.slice(0, 3)) console.log(line.slice(0, 2000));
}

/** The older scenarios: a bare route, API-key auth from the cache, and login auth with SQLite reads. */
async function runManagementScenarios(gateway: GatewayProcess, seconds: number): Promise<string[]> {
  const scenarios: Array<[string, string, Record<string, string>]> = [
    ['GET /healthz (no auth)', '/healthz', {}],
    ['GET /v1/models (API-key auth, cached)', '/v1/models', { authorization: `Bearer ${gateway.apiKey}` }],
    ['GET /api/token/:id (login auth + SQLite reads)', `/api/token/${gateway.tokenId}`, { authorization: `Bearer ${gateway.loginToken}` }],
  ];
  const rows: string[] = [];
  for (const [name, path, headers] of scenarios) {
    const result = await measureLoad({ origin: gateway.url, method: 'GET', path, headers, connections: loadedConnections, seconds });
    rows.push(`| ${name} | ${result.requestsPerSecond.toFixed(0)} | ${format(result.p50Milliseconds)} | ${format(result.p99Milliseconds)} | ${result.failures} |`);
  }
  return rows;
}

function printProfile(directory: string): void {
  const profile = readdirSync(directory).find((name) => name.endsWith('.cpuprofile'));
  if (profile === undefined) {
    console.log('\nno CPU profile was written');
    return;
  }
  const file = join(directory, profile);
  const byArea = summarizeCpuProfile(file, { by: 'area', limit: 15 });
  const busySeconds = byArea.busyMilliseconds / 1000;
  console.log(`\nGateway CPU profile: busy ${busySeconds.toFixed(1)} s, idle ${(byArea.idleMilliseconds / 1000).toFixed(1)} s; shares are of the busy time.\n`);
  console.log('| self ms | share | area |');
  console.log('| ---: | ---: | --- |');
  for (const entry of byArea.entries) console.log(`| ${entry.milliseconds.toFixed(0)} | ${(entry.share * 100).toFixed(1)}% | ${entry.location} |`);
  console.log('');
  console.log('| self ms | share | function |');
  console.log('| ---: | ---: | --- |');
  for (const entry of summarizeCpuProfile(file, { by: 'function', limit: 25 }).entries) {
    console.log(`| ${entry.milliseconds.toFixed(0)} | ${(entry.share * 100).toFixed(1)}% | ${entry.location} |`);
  }
}

/** `--soak`: the paced-stream soak, with its own report. */
async function soakMain(): Promise<void> {
  const directory = mkdtempSync(join(tmpdir(), 'model-gateway-soak-'));
  const loadBefore = loadavg()[0] as number;
  const started: ServerProcess[] = [];
  try {
    const upstream = await startListeningProgram(new URL('./fast-gx-upstream.js', import.meta.url), ['--pace-ms', '250']);
    started.push(upstream);
    const gateway = await startGatewayProcess({ upstreamUrl: upstream.url, directory, storage, logLevel: values['gateway-log-level'] as string, cpuProfile: false });
    started.push(gateway);
    const streams = Number(values['soak-streams']);
    const soakSeconds = Number(values['soak-seconds']);
    process.stderr.write(`soak: ${streams} paced streams for ${soakSeconds} s, then 30 s idle\n`);
    const result = await runSoak({ gatewayUrl: gateway.url, apiKey: gateway.apiKey, gatewayPid: gateway.pid, concurrency: streams, seconds: soakSeconds, idleSeconds: 30 });
    const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, ${osType()} ${release()}, Node ${process.version}`;
    console.log(`\nModel Gateway soak: ${new Date().toISOString()}\nmachine: ${machine}\nload average before: ${loadBefore.toFixed(2)}; gateway on ${storage}\n`);
    console.log(`| streams held | seconds | streams completed | dropped | RSS idle before | RSS peak under load | RSS end of load | RSS after 30 s idle |`);
    console.log(`| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |`);
    const peak = Math.max(...result.residentTimeline, result.afterLoad);
    console.log(`| ${streams} | ${soakSeconds} | ${result.completed} | ${result.dropped} | ${result.idleBefore.toFixed(0)} MiB | ${peak.toFixed(0)} MiB | ${result.afterLoad.toFixed(0)} MiB | ${result.afterIdle.toFixed(0)} MiB |`);
    console.log(`\nRSS every 5 s under load (MiB): ${everyNth(result.residentTimeline, 5).join(', ')}`);
    console.log(`V8 heap in use: ${result.heapUsedBefore.toFixed(0)} MiB before, ${result.heapUsedAfterIdle.toFixed(0)} MiB after the idle wait`);
    if (result.dropReasons.length > 0) console.log(`first drops: ${result.dropReasons.join(' | ')}`);
    console.log(`\nTargets:\n- nothing dropped: ${result.dropped === 0 ? 'met' : 'MISSED'}`);
    console.log(`- RSS plateaus under load: ${plateaued(result.residentTimeline) ? 'met' : 'MISSED'}`);
    const backNearIdle = result.afterIdle <= result.idleBefore + Math.max(50, 0.5 * (peak - result.idleBefore));
    console.log(`- RSS comes back near idle (within 50 MiB, or half the rise): ${backNearIdle ? 'met' : 'MISSED'}`);
  } finally {
    for (const server of started.reverse()) await server.stop();
    rmSync(directory, { recursive: true, force: true });
  }
}

(values.soak === true ? soakMain() : main()).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
