import type { FastifyInstance } from 'fastify';
import { estimateChatUsage } from '../../core/billing/estimate-chat-usage.js';
import type { GatewayConfig } from '../../core/config/config-schema.js';
import { chatCompletionRequestSchema } from '../../core/contracts/chat-completion-request.js';
import type { ModelRequestPipeline } from '../../core/pipeline/model-request-pipeline.js';
import { parseClientInput } from '../../core/validation/parse-client-input.js';
import { chatStreamEncoder } from './chat-stream-encoder.js';
import { answerModelRequest } from '../model-routes/model-invocation.js';

/** `POST /v1/chat/completions`. */
export async function chatRoutes(app: FastifyInstance, options: { runner: ModelRequestPipeline; config: GatewayConfig }): Promise<void> {
  app.post('/v1/chat/completions', { config: { auth: 'api-key', dialect: 'openai' } }, async (request, reply) => {
    const body = parseClientInput(chatCompletionRequestSchema, request.body);
    const stream = body.stream === true;
    return answerModelRequest(options.runner, request, reply, {
      operation: 'chat',
      request: body,
      model: body.model,
      stream,
      encoder: stream ? chatStreamEncoder : undefined,
      estimate: estimateChatUsage(body, options.config),
    });
  });
}
