import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ModelRequestPipeline } from '../../core/pipeline/model-request-pipeline.js';
import type { OperationInvocation } from '../../core/pipeline/operation-invocation.js';
import { clientLeftWatch } from '../http/client-abort-signal.js';
import { requestLineOf } from '../http/request-log-line.js';
import { apiTokenOf } from '../auth/route-auth.js';
import { sendInvocationOutcome } from './send-invocation-outcome.js';

/** What a route decides about an invocation; the rest comes from the request. */
export type InvocationFields = Omit<OperationInvocation, 'token' | 'requestId' | 'clientSignal' | 'logger' | 'line'>;

/**
 * The invocation of a model route: the route's fields, plus the API token the route's
 * guard checked (a request without one is a 401, never a null token), the request id, the signal that aborts when the client leaves, the request's
 * logger, and its log line, which the pipeline then writes.
 */
export function modelInvocation(request: FastifyRequest, reply: FastifyReply, fields: InvocationFields): OperationInvocation {
  return {
    ...fields,
    token: apiTokenOf(request).token,
    requestId: request.id,
    clientSignal: clientLeftWatch(reply),
    logger: request.log,
    line: requestLineOf(request, reply),
  };
}

/** Runs a model route's invocation through the pipeline and sends what it produced. */
export async function answerModelRequest(pipeline: ModelRequestPipeline, request: FastifyRequest, reply: FastifyReply, fields: InvocationFields): Promise<FastifyReply> {
  return sendInvocationOutcome(reply, await pipeline.run(modelInvocation(request, reply, fields)));
}
