import type { FastifyReply } from 'fastify';
import { AbortFlag, type AbortWatch } from '../../core/http/abort-flag.js';

// Both watch the response, not the request: a request's `close` also fires once its body has
// been read, which is not a disconnect.

/**
 * An AbortSignal that fires when the client goes away before the response is complete: for
 * calls that hand the signal to code outside the gateway (a task's status call).
 */
export function clientAbortSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}

/**
 * The same watch as {@link clientAbortSignal} as a plain {@link AbortFlag}, for the model
 * pipeline, which only reads it and feeds it into the attempt's own controller: one
 * `AbortController` per request instead of two.
 */
export function clientLeftWatch(reply: FastifyReply): AbortWatch {
  const flag = new AbortFlag();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) flag.abort();
  });
  return flag;
}
