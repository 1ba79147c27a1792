/**
 * `npm run bench:workers`: what `server.workers: auto` gains over one worker on SQLite, on
 * this machine, with the same load. The built gateway (`bench/start-gateway-process.ts`: one
 * gx channel, a limited-quota token, so every request authenticates, reserves, settles and is
 * logged at `info`) runs once with `workers: 1` and once with `workers: auto`, each on a fresh
 * SQLite file, in front of the fast fake gx upstream (`bench/fast-gx-upstream.ts`, a process
 * of its own). autocannon, in this process, sends `POST /v1/chat/completions` (non-stream,
 * the gx translation path) on a fixed number of connections for a fixed time; the two
 * settings alternate over the rounds, so background noise falls on both, and each round
 * restarts the gateway. Figures are medians over rounds.
 *
 * Nothing is pinned: the gateway's workers, the upstream and autocannon share every core, as
 * they would on a single machine that also runs its clients. bench.sh pins each target to one
 * core, so it cannot show this. The gateway's CPU time per request (primary and workers, from
 * /proc) shows where the cores went.
 *
 * Before each run it waits for a quiet machine (under a tenth of a core busy, up to
 * `--quiet-wait` s) and reports the cores other processes kept busy during the run ("others",
 * the largest over rounds): the machine is shared.
 *
 * Options: --seconds N per run (10), --rounds N (3), --connections N (50), --warmup N seconds
 * (3), --quiet-wait N seconds (120), --load-generator autocannon|wrk (autocannon; wrk, when
 * installed, leaves more of a small machine to the gateway).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, release, tmpdir, totalmem, type as osType } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chatCompletionBody } from './bench-workload.js';
import { measureLoad, type LoadRequest, type LoadResult } from './measure-load.js';
import { startGatewayProcess } from './start-gateway-process.js';
import { startListeningProgram } from './start-listening-program.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
    warmup: { type: 'string', default: '3' },
    'quiet-wait': { type: 'string', default: '120' },
    'load-generator': { type: 'string', default: 'autocannon' },
  },
});
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const connections = Number(values.connections);
const warmupSeconds = Number(values.warmup);
const quietWaitSeconds = Number(values['quiet-wait']);
const generator = values['load-generator'];
if (generator !== 'autocannon' && generator !== 'wrk') throw new Error('--load-generator takes autocannon or wrk');
const settings = [1, 'auto'] as const;
type Setting = (typeof settings)[number];

const median = (numbers: number[]): number => {
  const sorted = [...numbers].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

const clockTicksPerSecond = 100;

/**
 * CPU seconds (user + system) used so far by `pid` and every process below it, counting the
 * children it has already reaped (wrk, after a run) too. Linux only.
 */
function treeCpuSeconds(pid: number): number {
  const processes = new Map<number, { parent: number; ticks: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // The fields after the command name, which is in parentheses and may hold spaces:
    // state, ppid, ..., utime (12th), stime, cutime, cstime.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    processes.set(Number(entry), { parent: Number(fields[1]), ticks: [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index]), 0) });
  }
  const inTree = (candidate: number): boolean => {
    for (let current: number | undefined = candidate; current !== undefined && current > 1; current = processes.get(current)?.parent) if (current === pid) return true;
    return false;
  };
  let ticks = 0;
  for (const [candidate, { ticks: own }] of processes) if (inTree(candidate)) ticks += own;
  return ticks / clockTicksPerSecond;
}

/** CPU seconds every core has spent busy so far (user, nice, system, irq, softirq, steal), from /proc/stat. */
function machineBusySeconds(): number {
  const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] as string).trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, , , irq, softirq, steal] = fields as number[];
  return ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) / clockTicksPerSecond;
}

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/**
 * Waits (up to `quietWaitSeconds`) until the machine is nearly idle: less than a tenth of one
 * core busy over a second. The machine is shared; a run that starts while others work
 * measures them too.
 */
async function waitForQuiet(): Promise<void> {
  for (const until = Date.now() + quietWaitSeconds * 1000; Date.now() < until; ) {
    const before = machineBusySeconds();
    await sleep(1000);
    if (machineBusySeconds() - before < 0.1) return;
  }
  process.stderr.write(`the machine did not go quiet within ${quietWaitSeconds} s; measuring anyway (see "others" in the table)\n`);
}

/**
 * The same load as {@link measureLoad}, sent by wrk (one thread) instead of autocannon: wrk is
 * written in C and needs a fraction of autocannon's CPU for the same requests, which leaves
 * more of a shared machine to the workers. p50 and p99 come from wrk's latency distribution.
 */
async function measureWithWrk(load: LoadRequest & { seconds: number }, directory: string): Promise<LoadResult> {
  const script = join(directory, 'wrk-post.lua');
  const headers = Object.entries({ 'content-type': 'application/json', ...load.headers }).map(([name, value]) => `wrk.headers[${JSON.stringify(name)}] = ${JSON.stringify(value)}`);
  writeFileSync(script, [`wrk.method = "POST"`, `wrk.body = ${JSON.stringify(load.body ?? '')}`, ...headers].join('\n'));
  const output = await new Promise<string>((resolve, reject) => {
    execFile('wrk', ['-t1', `-c${load.connections}`, `-d${load.seconds}s`, '--timeout', '30s', '--latency', '-s', script, `${load.origin}${load.path}`], (error, stdout) =>
      error === null ? resolve(stdout) : reject(error),
    );
  });
  const number = (pattern: RegExp) => Number(pattern.exec(output)?.[1] ?? 0);
  const milliseconds = (pattern: RegExp) => {
    const match = pattern.exec(output);
    if (match === null) return Number.NaN;
    return Number(match[1]) * ({ us: 0.001, ms: 1, s: 1000 }[match[2] as 'us' | 'ms' | 's'] ?? Number.NaN);
  };
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output)?.slice(1).reduce((sum, value) => sum + Number(value), 0) ?? 0;
  return {
    requests: number(/(\d+) requests in/),
    requestsPerSecond: number(/Requests\/sec:\s+([\d.]+)/),
    p50Milliseconds: milliseconds(/^\s+50%\s+([\d.]+)(us|ms|s)$/m),
    p99Milliseconds: milliseconds(/^\s+99%\s+([\d.]+)(us|ms|s)$/m),
    failures: number(/Non-2xx or 3xx responses: (\d+)/) + socketErrors,
  };
}

interface RunResult extends LoadResult {
  /** Gateway CPU microseconds per answered request. */
  cpuMicroseconds: number;
  /** Cores kept busy during the run by processes other than the gateway, the upstream and this one. */
  otherCores: number;
}

async function measureSetting(setting: Setting, upstreamUrl: string): Promise<RunResult> {
  const directory = mkdtempSync(join(tmpdir(), 'model-gateway-workers-'));
  const gateway = await startGatewayProcess({ upstreamUrl, directory, storage: 'sqlite', logLevel: 'info', cpuProfile: false, workers: setting });
  try {
    const load = { origin: gateway.url, path: '/v1/chat/completions', headers: { authorization: `Bearer ${gateway.apiKey}` }, body: chatCompletionBody(false), connections };
    await waitForQuiet();
    const send = (seconds: number) => (generator === 'wrk' ? measureWithWrk({ ...load, seconds }, directory) : measureLoad({ ...load, seconds }));
    await send(warmupSeconds);
    // This process's tree: the load generator, the upstream and the gateway.
    const [gatewayBefore, benchBefore, machineBefore, started] = [treeCpuSeconds(gateway.pid), treeCpuSeconds(process.pid), machineBusySeconds(), Date.now()];
    const result = await send(seconds);
    const gatewaySeconds = treeCpuSeconds(gateway.pid) - gatewayBefore;
    const otherSeconds = machineBusySeconds() - machineBefore - (treeCpuSeconds(process.pid) - benchBefore);
    return {
      ...result,
      cpuMicroseconds: (gatewaySeconds * 1e6) / Math.max(1, result.requests),
      otherCores: Math.max(0, otherSeconds) / ((Date.now() - started) / 1000),
    };
  } finally {
    await gateway.stop();
    rmSync(directory, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const loadBefore = loadavg()[0] as number;
  const upstream = await startListeningProgram(new URL('./fast-gx-upstream.js', import.meta.url));
  const results = new Map<Setting, RunResult[]>(settings.map((setting) => [setting, []]));
  try {
    for (let round = 0; round < rounds; round += 1) {
      // Alternate which goes first, so neither always follows the other.
      for (const setting of round % 2 === 0 ? settings : [...settings].reverse()) {
        const result = await measureSetting(setting, upstream.url);
        results.get(setting)?.push(result);
        process.stderr.write(`round ${round + 1}, workers ${setting}: ${result.requestsPerSecond.toFixed(0)} req/s, ${result.failures} failures, others ${result.otherCores.toFixed(2)} cores\n`);
      }
    }
  } finally {
    await upstream.stop();
  }
  const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'} (auto = ${availableParallelism()} workers), ${Math.round(totalmem() / 2 ** 30)} GiB, ${osType()} ${release()}, Node ${process.version}`;
  console.log(`${new Date().toISOString()}; ${machine}; 1-minute load average before: ${loadBefore.toFixed(2)}`);
  console.log(`${generator === 'wrk' ? 'wrk (one thread)' : 'autocannon in this process'}, ${connections} connections, ${rounds} rounds of ${seconds} s (after ${warmupSeconds} s of warm-up), POST /v1/chat/completions non-stream, gx channel, SQLite, LOG_LEVEL=info`);
  console.log('| workers | requests/s (each round) | p50 ms | p99 ms | gateway CPU us/request | others, cores | failures |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  const summary = (setting: Setting) => {
    const list = results.get(setting) ?? [];
    return {
      requestsPerSecond: median(list.map((result) => result.requestsPerSecond)),
      p50: median(list.map((result) => result.p50Milliseconds)),
      p99: median(list.map((result) => result.p99Milliseconds)),
      cpu: median(list.map((result) => result.cpuMicroseconds)),
      others: Math.max(...list.map((result) => result.otherCores)),
      failures: list.reduce((sum, result) => sum + result.failures, 0),
      each: list.map((result) => result.requestsPerSecond.toFixed(0)).join(', '),
    };
  };
  for (const setting of settings) {
    const row = summary(setting);
    console.log(`| ${setting} | ${row.requestsPerSecond.toFixed(0)} (${row.each}) | ${row.p50.toFixed(2)} | ${row.p99.toFixed(2)} | ${row.cpu.toFixed(0)} | ${row.others.toFixed(2)} | ${row.failures} |`);
  }
  const ratios = Array.from({ length: rounds }, (_, round) => (results.get('auto')?.[round]?.requestsPerSecond ?? Number.NaN) / (results.get(1)?.[round]?.requestsPerSecond ?? Number.NaN));
  console.log(`auto / 1 worker: ${median(ratios).toFixed(2)}x (median of the per-round ratios: ${ratios.map((ratio) => ratio.toFixed(2)).join(', ')})`);
  if (settings.some((setting) => summary(setting).failures > 0)) process.exitCode = 1;
}

await main();
