import type { FastifyInstance } from 'fastify';
import type { GatewayConfig } from '../../core/config/config-schema.js';
import { responsesRequestSchema } from '../../core/contracts/responses-request.js';
import type { ModelRequestPipeline } from '../../core/pipeline/model-request-pipeline.js';
import { textModelRoute } from '../model-routes/text-model-route.js';
import { createResponsesStreamEncoder } from './responses-stream-encoder.js';

/** `POST /v1/responses`: a `previous_response_id` goes back to the channel that produced that response. */
export async function responsesRoutes(app: FastifyInstance, options: { pipeline: ModelRequestPipeline; config: GatewayConfig }): Promise<void> {
  textModelRoute(app, options, '/v1/responses', responsesRequestSchema, (body, stream) => ({
    operation: 'responses',
    encoder: stream ? createResponsesStreamEncoder() : undefined,
    affinityKey: body.previous_response_id ?? undefined,
  }));
}
