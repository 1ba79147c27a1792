import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { estimateChatUsage } from '../../core/billing/estimate-chat-usage.js';
import type { GatewayConfig } from '../../core/config/config-schema.js';
import type { Usage } from '../../core/contracts/usage.js';
import type { ModelRequestPipeline } from '../../core/pipeline/model-request-pipeline.js';
import { parseClientInput } from '../../core/validation/parse-client-input.js';
import type { RouteAuth } from '../auth/route-auth.js';
import type { ErrorDialect } from '../errors/error-dialects.js';
import { answerModelRequest, type InvocationFields } from './model-invocation.js';
import { takeRequestedModels } from './requested-models.js';

/** What a text route adds to its invocation, given the parsed body and whether it streams. */
export type TextRouteFields<Body> = (body: Body, stream: boolean) => Pick<InvocationFields, 'operation' | 'encoder' | 'affinityKey'>;

/** A text route of another format than OpenAI's: how its callers authenticate, the shape of its errors, its estimate. */
export interface TextRouteFormat<Body> {
  auth: RouteAuth;
  dialect: ErrorDialect;
  /** The usage to reserve quota by, for a body of this format. */
  estimate: (body: Body) => Usage;
}

/**
 * Registers a text route (chat completions, Responses, Messages): the JSON body parsed
 * strictly by `schema` once its `models` list is taken off (`takeRequestedModels`), streamed
 * when it says `stream: true`. By default an OpenAI-dialect
 * route whose quota is estimated from its messages as chat is; `format` says otherwise.
 */
export function textModelRoute<Schema extends z.ZodType<{ model: string; stream?: boolean | null }>>(
  app: FastifyInstance,
  options: { pipeline: ModelRequestPipeline; config: GatewayConfig },
  url: string,
  schema: Schema,
  fields: TextRouteFields<z.output<Schema>>,
  format?: TextRouteFormat<z.output<Schema>>,
): void {
  const config = { auth: format?.auth ?? 'api-key', dialect: format?.dialect ?? 'openai' } as const;
  app.post(url, { config }, async (request, reply) => {
    const requested = takeRequestedModels(request.body);
    const body = parseClientInput(schema, requested.body);
    const stream = body.stream === true;
    const estimate = format === undefined ? estimateChatUsage(body, options.pipeline.config) : format.estimate(body);
    return answerModelRequest(options.pipeline, request, reply, { request: body, model: body.model, models: requested.models, stream, estimate, ...fields(body, stream) });
  });
}
