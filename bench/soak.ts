import { Agent, request } from 'undici';
import { chatCompletionBody } from './bench-workload.js';
import { processMemory } from './process-memory.js';

/** What the soak is asked to do. */
export interface SoakOptions {
  gatewayUrl: string;
  apiKey: string;
  gatewayPid: number;
  /** Streams held open at once. */
  concurrency: number;
  seconds: number;
  /** How long to wait idle afterwards before reading memory again. */
  idleSeconds: number;
}

/** What the soak saw. */
export interface SoakResult {
  completed: number;
  /** Streams that did not end with `[DONE]` after a 200: errors, resets, early ends. */
  dropped: number;
  /** The first few reasons a stream was dropped. */
  dropReasons: string[];
  /** Resident memory (MiB) read every second during the load. */
  residentTimeline: number[];
  idleBefore: number;
  afterLoad: number;
  afterIdle: number;
  /** The V8 heap in use (MiB, from the gateway's /metrics) before the load and after the idle wait. */
  heapUsedBefore: number;
  heapUsedAfterIdle: number;
}

/** The gateway's V8 heap in use, in MiB, read from its own /metrics. */
async function heapUsed(gatewayUrl: string): Promise<number> {
  const text = await (await fetch(`${gatewayUrl}/metrics`)).text();
  const line = text.split('\n').find((entry) => entry.startsWith('gateway_nodejs_heap_size_used_bytes '));
  return line === undefined ? Number.NaN : Number(line.split(' ')[1]) / 2 ** 20;
}

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/**
 * Holds `concurrency` paced streams open against the gateway for `seconds`: each client sends
 * a stream, reads it to the end, checks it ended with `[DONE]`, and starts the next. The
 * gateway's resident memory is read every second, at the end, and after `idleSeconds` idle.
 */
export async function runSoak(options: SoakOptions): Promise<SoakResult> {
  const dispatcher = new Agent({ connections: options.concurrency + 16, keepAliveTimeout: 30_000, bodyTimeout: 120_000, headersTimeout: 120_000 });
  const body = chatCompletionBody(true);
  const headers = { authorization: `Bearer ${options.apiKey}`, 'content-type': 'application/json' };
  const idleBefore = processMemory(options.gatewayPid).residentMegabytes;
  const heapUsedBefore = await heapUsed(options.gatewayUrl);
  const residentTimeline: number[] = [];
  const sampler = setInterval(() => residentTimeline.push(Math.round(processMemory(options.gatewayPid).residentMegabytes)), 1000);
  const until = Date.now() + options.seconds * 1000;
  let completed = 0;
  let dropped = 0;
  const dropReasons: string[] = [];
  const drop = (reason: string) => {
    dropped += 1;
    if (dropReasons.length < 5) dropReasons.push(reason);
  };

  const client = async () => {
    while (Date.now() < until) {
      try {
        const response = await request(`${options.gatewayUrl}/v1/chat/completions`, { method: 'POST', headers, body, dispatcher });
        const text = await response.body.text();
        if (response.statusCode !== 200) drop(`HTTP ${response.statusCode}: ${text.slice(0, 120)}`);
        else if (!text.trimEnd().endsWith('data: [DONE]')) drop(`a stream ended without [DONE]: …${text.slice(-120)}`);
        else completed += 1;
      } catch (error) {
        drop((error as Error).message);
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, client));
  clearInterval(sampler);
  const afterLoad = processMemory(options.gatewayPid).residentMegabytes;
  await dispatcher.close();
  await sleep(options.idleSeconds * 1000);
  const afterIdle = processMemory(options.gatewayPid).residentMegabytes;
  const heapUsedAfterIdle = await heapUsed(options.gatewayUrl);
  return { completed, dropped, dropReasons, residentTimeline, idleBefore, afterLoad, afterIdle, heapUsedBefore, heapUsedAfterIdle };
}

const median = (numbers: number[]): number => {
  const sorted = [...numbers].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

/**
 * Whether memory plateaued: the median reading of the last third of the load is within 15%
 * of the median of the middle third (the first third is warm-up). Medians of one reading a
 * second, not single readings: between two collections the heap rises and falls by tens of
 * MiB depending only on where V8's collector is in its cycle, while a leak lifts the whole
 * level.
 */
export function plateaued(timeline: number[]): boolean {
  if (timeline.length < 3) return true;
  const third = Math.floor(timeline.length / 3);
  return median(timeline.slice(2 * third)) <= median(timeline.slice(third, 2 * third)) * 1.15;
}

/** The readings `every` apart, for a short timeline in the report. */
export function everyNth(timeline: number[], every: number): number[] {
  return timeline.filter((_, index) => (index + 1) % every === 0);
}
