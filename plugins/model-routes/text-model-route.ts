import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { estimateChatUsage } from '../../core/billing/estimate-chat-usage.js';
import type { GatewayConfig } from '../../core/config/config-schema.js';
import type { ModelRequestPipeline } from '../../core/pipeline/model-request-pipeline.js';
import { parseClientInput } from '../../core/validation/parse-client-input.js';
import { answerModelRequest, type InvocationFields } from './model-invocation.js';

/** What a text route adds to its invocation, given the parsed body and whether it streams. */
export type TextRouteFields<Body> = (body: Body, stream: boolean) => Pick<InvocationFields, 'operation' | 'encoder' | 'affinityKey'>;

/**
 * Registers an OpenAI-dialect text route (chat completions, Responses): the JSON body parsed
 * strictly by `schema`, streamed when it says `stream: true`, its quota estimated from its
 * messages as chat is.
 */
export function textModelRoute<Schema extends z.ZodType<{ model: string; stream?: boolean | null }>>(
  app: FastifyInstance,
  options: { pipeline: ModelRequestPipeline; config: GatewayConfig },
  url: string,
  schema: Schema,
  fields: TextRouteFields<z.output<Schema>>,
): void {
  app.post(url, { config: { auth: 'api-key', dialect: 'openai' } }, async (request, reply) => {
    const body = parseClientInput(schema, request.body);
    const stream = body.stream === true;
    const estimate = estimateChatUsage(body, options.config);
    return answerModelRequest(options.pipeline, request, reply, { request: body, model: body.model, stream, estimate, ...fields(body, stream) });
  });
}
