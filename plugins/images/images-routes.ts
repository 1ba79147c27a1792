import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { estimateImageUsage } from '../../core/billing/estimate-image-usage.js';
import type { GatewayConfig } from '../../core/config/config-schema.js';
import { imageRequestSchema, type ImageRequest } from '../../core/contracts/image-requests.js';
import type { PipelineOperation } from '../../core/pipeline/operation-invocation.js';
import type { ModelRequestPipeline } from '../../core/pipeline/model-request-pipeline.js';
import { parseClientInput } from '../../core/validation/parse-client-input.js';
import { readJsonOrMultipart } from '../http/read-multipart-form.js';
import { answerModelRequest } from '../model-routes/model-invocation.js';

const routes: Array<[string, PipelineOperation]> = [
  ['/v1/images/generations', 'images.generate'],
  ['/v1/images/edits', 'images.edit'],
];

/**
 * `POST /v1/images/generations` and `/v1/images/edits`, JSON or multipart, answering errors
 * in the images table's codes. Multipart is read only here, each file capped at
 * `security.media.max_bytes`; which families accept it is for their providers to say.
 */
export async function imagesRoutes(app: FastifyInstance, options: { pipeline: ModelRequestPipeline; config: GatewayConfig }): Promise<void> {
  await app.register(fastifyMultipart, {
    limits: { fileSize: options.config.security.media.max_bytes, files: 16, fields: 64, fieldSize: 1024 * 1024, parts: 80 },
  });
  for (const [path, operation] of routes) {
    app.post(path, { config: { auth: 'api-key', dialect: 'images' } }, async (request, reply) => {
      const input = await readJsonOrMultipart(request, options.config.security.media.max_bytes);
      const body: ImageRequest = parseClientInput(imageRequestSchema, input);
      return answerModelRequest(options.pipeline, request, reply, {
        operation,
        request: body,
        model: body.model,
        stream: false,
        estimate: estimateImageUsage(body, options.pipeline.config),
      });
    });
  }
}
