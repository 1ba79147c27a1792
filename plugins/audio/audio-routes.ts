import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { GatewayConfig } from '../../core/config/config-schema.js';
import { speechRequestSchema } from '../../core/contracts/audio-requests.js';
import type { PipelineOperation } from '../../core/pipeline/operation-invocation.js';
import { GatewayError } from '../../core/errors/gateway-error.js';
import { invalidRequest } from '../../core/errors/error-codes.js';
import type { ModelRequestPipeline } from '../../core/pipeline/model-request-pipeline.js';
import { parseClientInput } from '../../core/validation/parse-client-input.js';
import { estimateSpeechUsage, estimateTranscriptionUsage } from './estimate-audio-usage.js';
import { readTranscriptionForm, type TranscriptionTask } from './read-transcription-form.js';
import { answerModelRequest } from '../model-routes/model-invocation.js';

interface AudioRouteOptions {
  pipeline: ModelRequestPipeline;
  config: GatewayConfig;
}

/** The longest text field of a transcription form (a prompt is a few hundred tokens at most). */
const maxFieldBytes = 64 * 1024;

const transcriptionRoutes: Array<[string, PipelineOperation, TranscriptionTask]> = [
  ['/v1/audio/transcriptions', 'audio.transcribe', 'transcribe'],
  ['/v1/audio/translations', 'audio.translate', 'translate'],
];

/**
 * `POST /v1/audio/speech` (JSON in, the audio bytes streamed out) and
 * `/v1/audio/transcriptions` and `/v1/audio/translations` (multipart in, the transcript as
 * the upstream wrote it). Errors answer in the OpenAI shape. The API key is checked in
 * `onRequest`, before any of an upload is read.
 */
export async function audioRoutes(app: FastifyInstance, options: AudioRouteOptions): Promise<void> {
  app.post('/v1/audio/speech', { config: { auth: 'api-key', dialect: 'openai' } }, async (request, reply) => {
    const body = parseClientInput(speechRequestSchema, request.body);
    return answerModelRequest(options.pipeline, request, reply, {
      operation: 'audio.speech',
      request: body,
      model: body.model,
      stream: false,
      estimate: estimateSpeechUsage(body.input),
    });
  });
  await app.register(uploadRoutes, options);
}

/**
 * The multipart routes, in a scope of their own: multipart is parsed only here, one file of
 * at most `audio.max_upload_mb` MiB and a few small fields. Any other body is refused before
 * it is read, with a message that says to send a form.
 */
async function uploadRoutes(app: FastifyInstance, options: AudioRouteOptions): Promise<void> {
  const maxUploadMegabytes = options.config.audio.max_upload_mb;
  app.removeAllContentTypeParsers();
  await app.register(fastifyMultipart, {
    limits: { fileSize: maxUploadMegabytes * 1024 * 1024, files: 1, fields: 16, fieldSize: maxFieldBytes, parts: 20 },
  });
  app.addContentTypeParser('*', (request, _payload, done) => {
    const contentType = request.headers['content-type'] ?? '';
    const json = /^application\/([\w.+-]+\+)?json\b/i.test(contentType);
    done(
      json
        ? invalidRequest('the body is JSON; send the audio as multipart/form-data with a "file" part and a "model" field')
        : new GatewayError(415, 'unsupported_media_type', 'unsupported Content-Type; send the audio as multipart/form-data with a "file" part and a "model" field'),
      undefined,
    );
  });

  for (const [path, operation, task] of transcriptionRoutes) {
    app.post(path, { config: { auth: 'api-key', dialect: 'openai' } }, async (request, reply) => {
      if (!request.isMultipart()) throw invalidRequest('no form: send the audio as multipart/form-data with a "file" part and a "model" field');
      const body = await readTranscriptionForm(request, task, { maxUploadMegabytes, maxFieldBytes });
      return answerModelRequest(options.pipeline, request, reply, {
        operation,
        request: body,
        model: body.model,
        stream: false,
        estimate: estimateTranscriptionUsage(body.file),
      });
    });
  }
}
