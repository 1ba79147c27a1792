import type { FastifyReply } from 'fastify';
import type { InvocationOutcome } from '../../core/pipeline/operation-invocation.js';

/**
 * Sends what the pipeline produced: JSON (or a text transcript) as it is, raw bytes with their
 * content type, a stream with the headers SSE needs to pass proxies unbuffered.
 */
export function sendInvocationOutcome(reply: FastifyReply, outcome: InvocationOutcome): FastifyReply {
  if (outcome.kind === 'json') {
    reply.code(outcome.status);
    if (outcome.contentType !== undefined) reply.type(outcome.contentType);
    else if (typeof outcome.body === 'string') reply.type('application/json; charset=utf-8');
    return reply.send(outcome.body);
  }
  if (outcome.kind === 'bytes') return reply.code(200).type(outcome.contentType).send(outcome.readable);
  if (outcome.kind === 'task') throw new Error('a task outcome is stored by the task service, never sent as it is');
  return reply
    .code(200)
    .headers({ 'content-type': outcome.contentType, 'cache-control': 'no-cache', 'x-accel-buffering': 'no', connection: 'keep-alive' })
    .send(outcome.readable);
}
