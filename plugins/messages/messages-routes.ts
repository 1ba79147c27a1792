import type { FastifyInstance } from 'fastify';
import { estimateMessagesInputTokens, estimateMessagesUsage } from '../../core/billing/estimate-messages-usage.js';
import type { GatewayConfig } from '../../core/config/config-schema.js';
import { messagesCountTokensRequestSchema, messagesRequestSchema } from '../../core/contracts/messages-request.js';
import type { ModelRequestPipeline } from '../../core/pipeline/model-request-pipeline.js';
import { authorizeModel } from '../../core/pipeline/steps/authorize-model.js';
import { parseClientInput } from '../../core/validation/parse-client-input.js';
import { apiTokenOf } from '../auth/route-auth.js';
import { textModelRoute } from '../model-routes/text-model-route.js';
import { messagesStreamEncoder } from './messages-stream-encoder.js';

/** The response header that says a token count is the gateway's estimate, not a tokenizer's. */
export const tokenCountHeader = 'x-token-count';

const format = { auth: 'messages-api-key', dialect: 'anthropic', estimate: estimateMessagesUsage } as const;

/**
 * `POST /v1/messages` and `POST /v1/messages/count_tokens`, in the Anthropic Messages format:
 * the API key as `x-api-key` or `Authorization: Bearer`, errors in Anthropic's shape, the
 * `anthropic-version` and `anthropic-beta` headers accepted and not read (docs/routes.md). A
 * message is served by the messages-to-chat translator on every chat family. Every answer
 * carries the request id as `request-id` too, the header Anthropic's SDK reports.
 */
export async function messagesRoutes(app: FastifyInstance, options: { pipeline: ModelRequestPipeline; config: GatewayConfig }): Promise<void> {
  app.addHook('onSend', async (request, reply) => {
    reply.header('request-id', request.id);
  });

  textModelRoute(app, options, '/v1/messages', messagesRequestSchema, (_body, stream) => ({ operation: 'messages', encoder: stream ? messagesStreamEncoder : undefined }), format);

  // Counted without the model: the gateway's estimate of the prompt (the same one quota is
  // reserved by), labelled as such in the header. The key's model limits still apply.
  app.post('/v1/messages/count_tokens', { config: { auth: format.auth, dialect: format.dialect } }, async (request, reply) => {
    const body = parseClientInput(messagesCountTokensRequestSchema, request.body);
    authorizeModel(apiTokenOf(request).token, body.model);
    reply.header(tokenCountHeader, 'estimated');
    return { input_tokens: estimateMessagesInputTokens(body) };
  });
}
