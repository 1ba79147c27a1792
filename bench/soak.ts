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
  /** Resident memory (MiB) each sampling interval during the load. */
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
 * gateway's resident memory is read every 5 s, at the end, and after `idleSeconds` idle.
 */
export async function runSoak(options: SoakOptions): Promise<SoakResult> {
  const dispatcher = new Agent({ connections: options.concurrency + 16, keepAliveTimeout: 30_000, bodyTimeout: 120_000, headersTimeout: 120_000 });
  const body = chatCompletionBody(true);
  const headers = { authorization: `Bearer ${options.apiKey}`, 'content-type': 'application/json' };
  const idleBefore = processMemory(options.gatewayPid).residentMegabytes;
  const heapUsedBefore = await heapUsed(options.gatewayUrl);
  const residentTimeline: number[] = [];
  const sampler = setInterval(() => residentTimeline.push(Math.round(processMemory(options.gatewayPid).residentMegabytes)), 5000);
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

/**
 * Whether memory plateaued: the highest reading of the last third of the load is within 15%
 * of the highest of the middle third (the first third is warm-up).
 */
export function plateaued(timeline: number[]): boolean {
  if (timeline.length < 3) return true;
  const third = Math.floor(timeline.length / 3);
  const middle = Math.max(...timeline.slice(third, 2 * third));
  const last = Math.max(...timeline.slice(2 * third));
  return last <= middle * 1.15;
}
