import type { FastifyReply } from 'fastify';

/**
 * An AbortSignal that fires when the client goes away before the response is complete.
 * It watches the response, not the request: a request's `close` also fires once its body
 * has been read, which is not a disconnect.
 */
export function clientAbortSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}
