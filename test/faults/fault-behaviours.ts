import type { ScriptedBehaviour } from '../../core/testing/index.js';
import { maxEventBytes, type RouteUnderFault } from './fault-scene.js';

/** A behaviour for the fakes of a route: what both fake families understand, plus their own extras. */
export type FaultBehaviour = ScriptedBehaviour & Record<string, unknown>;

/** An answer that is not JSON, as each fake family sends it on the route. */
export function garbageFor(route: RouteUnderFault): FaultBehaviour | undefined {
  if (route.bytes === true) return undefined;
  if (route.upstream === 'gx') return { garbage: true };
  if (route.stream !== undefined) return { rawSse: route.stream === 'responses' ? 'event: response.created\ndata: this is not JSON {\n\n' : 'data: this is not JSON {\n\n' };
  return { status: 200, body: 'this is not JSON {' };
}

/** One event larger than {@link maxEventBytes}, as the route's upstream frames it; undefined for a route without a stream. */
function oversizeEvent(route: RouteUnderFault): string | undefined {
  const padding = 'y'.repeat(maxEventBytes + 1024);
  switch (route.stream) {
    case 'gx':
      return `data: {"candidates": [{"content": {"parts": [{"text": "${padding}"}],"role": "model"},"index": 0}]}\r\n\r\n`;
    case 'openai-chat':
      return `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"gpt-5.4","choices":[{"index":0,"delta":{"content":"${padding}"}}]}\n\n`;
    case 'responses':
      return `event: response.output_text.delta\ndata: {"type":"response.output_text.delta","delta":"${padding}"}\n\n`;
    default:
      return undefined;
  }
}

/** The events of a stream before any content: the Responses route opens with `response.created`. */
function eventsBeforeContent(route: RouteUnderFault): string[] {
  if (route.stream !== 'responses') return [];
  return ['event: response.created\ndata: {"type":"response.created","sequence_number":0,"response":{"id":"resp_big","object":"response","status":"in_progress"}}\n\n'];
}

/** The first event with content, as the route's upstream frames it. */
function firstContentEvent(route: RouteUnderFault): string | undefined {
  switch (route.stream) {
    case 'gx':
      return 'data: {"candidates": [{"content": {"parts": [{"text": "partial"}],"role": "model"},"index": 0}],"usageMetadata": {"promptTokenCount": 9,"candidatesTokenCount": 1,"totalTokenCount": 10}}\r\n\r\n';
    case 'openai-chat':
      return 'data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"gpt-5.4","choices":[{"index":0,"delta":{"content":"partial"}}]}\n\n';
    case 'responses':
      return 'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","sequence_number":1,"delta":"partial"}\n\n';
    default:
      return undefined;
  }
}

/**
 * How an upstream's bytes may reach the gateway. Where a stream commits (at its first
 * content, and whatever follows in the same read is after content) must not depend on it.
 */
export const chunkings = ['in one write', 'in one write per event', 'cut inside lines and inside the blank lines'] as const;
export type Chunking = (typeof chunkings)[number];

/** `events` written as `chunking` says; pieces written apart are 20 ms apart. */
function written(events: string[], chunking: Chunking): FaultBehaviour {
  if (chunking === 'in one write') return { rawSse: [events.join('')] };
  if (chunking === 'in one write per event') return { chunkDelayMs: 20, rawSse: events };
  // Each event cut in its middle and one byte before its end, so a line and its event's
  // blank line each arrive in two reads (a CRLF between its CR and LF).
  const pieces = events.flatMap((event) => {
    const middle = Math.floor(event.length / 2);
    return [event.slice(0, middle), event.slice(middle, -1), event.slice(-1)];
  });
  return { chunkDelayMs: 20, rawSse: pieces };
}

/** One event larger than {@link maxEventBytes}, before any content (after the route's opening events). */
export function oversizeEventFor(route: RouteUnderFault, chunking: Chunking): FaultBehaviour | undefined {
  const big = oversizeEvent(route);
  return big === undefined ? undefined : written([...eventsBeforeContent(route), big], chunking);
}

/** A stream that stops in the middle of its first event, before any content. */
export function cutFirstEventFor(route: RouteUnderFault): FaultBehaviour | undefined {
  switch (route.stream) {
    case 'gx':
      return { rawSse: ['data: {"candidates": [{"content": {"parts": [{"text": "cut'] };
    case 'openai-chat':
      return { rawSse: ['data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"cut'] };
    case 'responses':
      return { rawSse: ['event: response.created\ndata: {"type":"response.created","sequence_number":0,"response":{"id":"resp_cut'] };
    default:
      return undefined;
  }
}

/** One event with content, then one larger than {@link maxEventBytes}. */
export function oversizeAfterContentFor(route: RouteUnderFault, chunking: Chunking): FaultBehaviour | undefined {
  const big = oversizeEvent(route);
  const content = firstContentEvent(route);
  if (big === undefined || content === undefined) return undefined;
  return written([...eventsBeforeContent(route), content, big], chunking);
}
