import type { PiecewiseAnswer, RecordedRequest } from '../../../core/testing/index.js';
import type { DashScopeBehaviour } from './dashscope-behaviour.js';
import type { ResultImages } from './result-images.js';
import type { VideoTasks } from './video-tasks.js';

/** What a route of the fake DashScope upstream gets for one authorised request. */
export interface DashScopeExchange {
  request: RecordedRequest;
  behaviour: DashScopeBehaviour;
  /** The fake's origin, for URLs that point back at it. */
  origin: string;
  /** Where generated images are kept for download. */
  results: ResultImages;
  /** The video tasks accepted so far, with their lifecycle. */
  tasks: VideoTasks;
  /** The groups a route's path pattern captured (the task id of `GET /api/v1/tasks/{id}`). */
  captures: string[];
}

/** One API route of the fake: turns an exchange into the answer to write. */
export type DashScopeRoute = (exchange: DashScopeExchange) => PiecewiseAnswer;

/** A whole JSON body with its length; an object goes out as compact JSON, as DashScope sends it, a string as is. */
export function jsonAnswer(status: number, body: unknown): PiecewiseAnswer {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return { status, headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) }, pieces: [text], streamed: false };
}

/** The first value of a header that may repeat. */
export const headerValue = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/** A JSON object, not an array or null. */
export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
