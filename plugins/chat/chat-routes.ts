import type { FastifyInstance } from 'fastify';
import type { GatewayConfig } from '../../core/config/config-schema.js';
import { chatCompletionRequestSchema } from '../../core/contracts/chat-completion-request.js';
import type { ModelRequestPipeline } from '../../core/pipeline/model-request-pipeline.js';
import { textModelRoute } from '../model-routes/text-model-route.js';
import { chatStreamEncoder } from './chat-stream-encoder.js';

/** `POST /v1/chat/completions`. */
export async function chatRoutes(app: FastifyInstance, options: { pipeline: ModelRequestPipeline; config: GatewayConfig }): Promise<void> {
  textModelRoute(app, options, '/v1/chat/completions', chatCompletionRequestSchema, (_body, stream) => ({
    operation: 'chat',
    encoder: stream ? chatStreamEncoder : undefined,
  }));
}
