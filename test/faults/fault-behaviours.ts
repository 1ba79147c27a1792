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

/** One event larger than {@link maxEventBytes}, before any content. */
export function oversizeEventFor(route: RouteUnderFault): FaultBehaviour | undefined {
  const padding = 'y'.repeat(maxEventBytes + 1024);
  switch (route.stream) {
    case 'gx':
      return { rawSse: `data: {"candidates": [{"content": {"parts": [{"text": "${padding}"}],"role": "model"},"index": 0}]}\r\n\r\n` };
    case 'openai-chat':
      return { rawSse: `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"gpt-5.4","choices":[{"index":0,"delta":{"content":"${padding}"}}]}\n\n` };
    case 'responses':
      return { rawSse: `event: response.output_text.delta\ndata: {"type":"response.output_text.delta","delta":"${padding}"}\n\n` };
    default:
      return undefined;
  }
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
export function oversizeAfterContentFor(route: RouteUnderFault): FaultBehaviour | undefined {
  const big = oversizeEventFor(route)?.rawSse as string | undefined;
  if (big === undefined) return undefined;
  switch (route.stream) {
    case 'gx':
      return {
        chunkDelayMs: 30,
        rawSse: [
          'data: {"candidates": [{"content": {"parts": [{"text": "partial"}],"role": "model"},"index": 0}],"usageMetadata": {"promptTokenCount": 9,"candidatesTokenCount": 1,"totalTokenCount": 10}}\r\n\r\n',
          big,
        ],
      };
    case 'openai-chat':
      return {
        chunkDelayMs: 30,
        rawSse: ['data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"gpt-5.4","choices":[{"index":0,"delta":{"content":"partial"}}]}\n\n', big],
      };
    case 'responses':
      return {
        chunkDelayMs: 30,
        rawSse: [
          'event: response.created\ndata: {"type":"response.created","sequence_number":0,"response":{"id":"resp_big","object":"response","status":"in_progress"}}\n\n',
          'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","sequence_number":1,"delta":"partial"}\n\n',
          big,
        ],
      };
    default:
      return undefined;
  }
}
