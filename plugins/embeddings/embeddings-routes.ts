import type { FastifyInstance } from 'fastify';
import { estimateChatUsage } from '../../core/billing/estimate-chat-usage.js';
import type { GatewayConfig } from '../../core/config/config-schema.js';
import { embeddingsRequestSchema } from '../../core/contracts/embeddings-request.js';
import type { ModelRequestPipeline } from '../../core/pipeline/model-request-pipeline.js';
import { parseClientInput } from '../../core/validation/parse-client-input.js';
import { answerModelRequest } from '../model-routes/model-invocation.js';

/**
 * `POST /v1/embeddings`, in the OpenAI format (`embeddings` operation): the body checked
 * strictly, its quota estimated as the native embedding routes estimate theirs, each input as
 * one content of text (input only, no output), so one text reserves the same on either route.
 * A family serves it through the embeddings translator when its provider speaks the native
 * embedding calls.
 */
export async function embeddingsRoutes(app: FastifyInstance, options: { pipeline: ModelRequestPipeline; config: GatewayConfig }): Promise<void> {
  app.post('/v1/embeddings', { config: { auth: 'api-key', dialect: 'openai' } }, async (request, reply) => {
    const body = parseClientInput(embeddingsRequestSchema, request.body);
    const inputs: unknown[] = typeof body.input === 'string' ? [body.input] : body.input;
    const estimate = estimateChatUsage({ contents: inputs.map((text) => ({ parts: [{ text }] })) }, options.pipeline.config, 0);
    return answerModelRequest(options.pipeline, request, reply, { operation: 'embeddings', request: body, model: body.model, stream: false, estimate });
  });
}
