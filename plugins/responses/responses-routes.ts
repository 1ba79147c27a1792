import type { FastifyInstance } from 'fastify';
import { estimateChatUsage } from '../../core/billing/estimate-chat-usage.js';
import type { GatewayConfig } from '../../core/config/config-schema.js';
import { responsesRequestSchema } from '../../core/contracts/responses-request.js';
import type { ModelRequestPipeline } from '../../core/pipeline/model-request-pipeline.js';
import { parseClientInput } from '../../core/validation/parse-client-input.js';
import { createResponsesStreamEncoder } from './responses-stream-encoder.js';
import { answerModelRequest } from '../model-routes/model-invocation.js';

/** `POST /v1/responses`: a `previous_response_id` goes back to the channel that produced that response. */
export async function responsesRoutes(app: FastifyInstance, options: { runner: ModelRequestPipeline; config: GatewayConfig }): Promise<void> {
  app.post('/v1/responses', { config: { auth: 'api-key', dialect: 'openai' } }, async (request, reply) => {
    const body = parseClientInput(responsesRequestSchema, request.body);
    const stream = body.stream === true;
    return answerModelRequest(options.runner, request, reply, {
      operation: 'responses',
      request: body,
      model: body.model,
      stream,
      encoder: stream ? createResponsesStreamEncoder() : undefined,
      estimate: estimateChatUsage(body, options.config),
      affinityKey: body.previous_response_id ?? undefined,
    });
  });
}
