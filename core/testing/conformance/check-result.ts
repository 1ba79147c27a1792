import type { OperationResult } from '../../contracts/provider/operation-results.js';
import { usageProblem } from './check-usage.js';

const taskStatuses = ['queued', 'in_progress', 'succeeded', 'failed'];

/** What is wrong with the fields of a result of a non-stream kind, or undefined (a stream is checked by decoding it). */
export function resultProblem(result: OperationResult): string | undefined {
  switch (result.kind) {
    case 'json': {
      if (result.status !== undefined && (!Number.isInteger(result.status) || result.status < 200 || result.status > 299)) return `status ${result.status}: a json result is a success; a failure is a thrown GatewayError`;
      if (typeof result.body === 'string') {
        const isJson = result.contentType === undefined || /json/.test(result.contentType);
        if (isJson) {
          try {
            JSON.parse(result.body);
          } catch {
            return 'a string body is sent as JSON unless contentType says otherwise, and this one is not JSON';
          }
        }
      } else {
        try {
          JSON.stringify(result.body);
        } catch (error) {
          return `the body cannot be serialized as JSON: ${(error as Error).message}`;
        }
      }
      return usageProblem(result.usage);
    }
    case 'bytes':
      if (typeof result.contentType !== 'string' || result.contentType === '') return 'a bytes result names its contentType';
      return usageProblem(result.usage);
    case 'task':
      if (typeof result.handle !== 'string' || result.handle === '') return 'a task result carries the handle the provider asks about the task with, as a non-empty string';
      if (result.details !== undefined && Object.values(result.details).some((value) => !['string', 'number', 'boolean'].includes(typeof value))) return 'task details are strings, numbers or booleans';
      return usageProblem(result.usage);
    case 'task-progress':
      if (!taskStatuses.includes(result.status)) return `status ${JSON.stringify(result.status)} is none of ${taskStatuses.join(', ')}`;
      if (result.progress !== undefined && !(typeof result.progress === 'number' && result.progress >= 0 && result.progress <= 100)) return `progress is a percentage (got ${JSON.stringify(result.progress)})`;
      if (result.url !== undefined && typeof result.url !== 'string') return 'url is a string';
      if (result.error !== undefined && (typeof result.error.code !== 'number' || typeof result.error.message !== 'string')) return 'a task error has a numeric code and a message';
      return result.usage === undefined ? undefined : usageProblem(result.usage);
    case 'stream':
      return result.framing !== 'sse' || typeof result.decoder?.push !== 'function' || typeof result.decoder?.end !== 'function' ? 'a stream result has framing "sse" and a decoder with push() and end()' : undefined;
    default:
      return `unknown result kind ${JSON.stringify((result as { kind?: unknown }).kind)}`;
  }
}

/** Releases a result's unread upstream body, so its connection is not left open. */
export async function releaseResult(result: OperationResult | undefined): Promise<void> {
  if (result !== undefined && (result.kind === 'stream' || result.kind === 'bytes')) await result.body.dump().catch(() => undefined);
}

/** Reads a bytes result's body to its end; resolves with its length. */
export async function byteLength(result: Extract<OperationResult, { kind: 'bytes' }>): Promise<number> {
  let length = 0;
  for await (const chunk of result.body) length += chunk.byteLength;
  return length;
}
