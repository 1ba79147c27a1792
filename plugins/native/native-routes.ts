import type { FastifyInstance } from 'fastify';
import { estimateChatUsage } from '../../core/billing/estimate-chat-usage.js';
import type { GatewayConfig } from '../../core/config/config-schema.js';
import { nativeBatchEmbedRequestSchema, nativeEmbedRequestSchema, nativeGenerateRequestSchema } from '../../core/contracts/native-requests.js';
import type { OperationName } from '../../core/contracts/provider/operation-call.js';
import { GatewayError } from '../../core/errors/gateway-error.js';
import type { ModelRequestPipeline } from '../../core/pipeline/model-request-pipeline.js';
import { parseClientInput } from '../../core/validation/parse-client-input.js';
import { createNativeJsonArrayEncoder, nativeSseEncoder } from './native-stream-encoders.js';
import { answerModelRequest } from '../model-routes/model-invocation.js';
import { quoted } from '../../core/errors/client-text.js';

const methods = {
  generateContent: { operation: 'native.generate', schema: nativeGenerateRequestSchema, stream: false },
  streamGenerateContent: { operation: 'native.generate', schema: nativeGenerateRequestSchema, stream: true },
  embedContent: { operation: 'native.embed', schema: nativeEmbedRequestSchema, stream: false },
  batchEmbedContents: { operation: 'native.batchEmbed', schema: nativeBatchEmbedRequestSchema, stream: false },
} as const satisfies Record<string, { operation: OperationName; schema: unknown; stream: boolean }>;

/** The contents an embedding request embeds, for the estimate. */
function embeddedContents(body: { requests?: Array<{ content: unknown }>; content?: unknown }): unknown[] {
  return body.requests === undefined ? [body.content] : body.requests.map((entry) => entry.content);
}

/** `POST /v1beta/models/{model}:{generateContent, streamGenerateContent, embedContent, batchEmbedContents}`. */
export async function nativeRoutes(app: FastifyInstance, options: { pipeline: ModelRequestPipeline; config: GatewayConfig }): Promise<void> {
  app.post('/v1beta/models/:call', { config: { auth: 'native-api-key', dialect: 'native' } }, async (request, reply) => {
    const call = (request.params as { call: string }).call;
    const separator = call.lastIndexOf(':');
    const model = separator > 0 ? call.slice(0, separator).replace(/^models\//, '') : '';
    const method = methods[call.slice(separator + 1) as keyof typeof methods];
    if (separator <= 0 || method === undefined) {
      throw new GatewayError(404, 'not_found', `unknown method in ${quoted(call)}; use {model}:generateContent, :streamGenerateContent, :embedContent or :batchEmbedContents`);
    }
    const body = parseClientInput(method.schema, request.body);
    const alt = (request.query as { alt?: unknown }).alt;
    const estimate =
      method.operation === 'native.generate'
        ? estimateChatUsage(body, options.pipeline.config)
        : estimateChatUsage({ contents: embeddedContents(body as { requests?: Array<{ content: unknown }>; content?: unknown }) }, options.pipeline.config, 0);
    return answerModelRequest(options.pipeline, request, reply, {
      operation: method.operation,
      request: body,
      model,
      stream: method.stream,
      encoder: method.stream ? (alt === 'sse' ? nativeSseEncoder : createNativeJsonArrayEncoder()) : undefined,
      estimate,
    });
  });
}
