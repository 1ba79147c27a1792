import type { Dispatcher } from 'undici';
import type { UpstreamResponse } from '../contracts/provider/upstream-http.js';
import type { Deadline } from './deadline.js';
import { mapUndiciError, type UpstreamFailureContext } from './map-undici-error.js';
import { UpstreamResponseBody } from './upstream-response-body.js';

/**
 * An undici answer as the providers see it: its body reports failures as gateway errors of
 * the body phase, holds at most `maxBytes` when read whole, and the request's deadline is
 * disarmed once the body closes.
 */
export function upstreamResponseOf(response: Dispatcher.ResponseData, deadline: Deadline, context: Omit<UpstreamFailureContext, 'phase'>, maxBytes: number): UpstreamResponse {
  response.body.once('close', () => deadline.clear());
  const length = response.headers['content-length'];
  const declaredBytes = typeof length === 'string' && /^\d+$/.test(length) ? Number(length) : undefined;
  return {
    statusCode: response.statusCode,
    headers: response.headers,
    body: new UpstreamResponseBody(response.body, (error) => mapUndiciError(error, { ...context, phase: 'body' }), { maxBytes, declaredBytes }),
  };
}
