import type { OperationName, OperationResult } from '../../contracts/provider-plugin.js';
import { assetCreateRequestSchema, assetGroupCreateRequestSchema, validationSessionRequestSchema } from '../../contracts/asset-requests.js';
import { speechRequestSchema } from '../../contracts/audio-requests.js';
import { chatCompletionRequestSchema } from '../../contracts/chat-completion-request.js';
import { imageRequestSchema } from '../../contracts/image-requests.js';
import { nativeBatchEmbedRequestSchema, nativeEmbedRequestSchema, nativeGenerateRequestSchema } from '../../contracts/native-requests.js';
import { responsesRequestSchema } from '../../contracts/responses-request.js';
import { videoSubmitRequestSchema } from '../../contracts/video-requests.js';

type Kind = OperationResult['kind'];

/**
 * The result kinds the gateway accepts from each operation, as its routes and the task
 * service read them: a streamable operation answers `stream` when the client asked for a
 * stream and `json` otherwise; `video.submit` answers `task`, `video.status` `task-progress`.
 */
export const resultKinds: Record<OperationName, { plain: readonly Kind[]; streamed?: readonly Kind[] }> = {
  chat: { plain: ['json'], streamed: ['stream'] },
  responses: { plain: ['json'], streamed: ['stream'] },
  'native.generate': { plain: ['json'], streamed: ['stream'] },
  'native.embed': { plain: ['json'] },
  'native.batchEmbed': { plain: ['json'] },
  'images.generate': { plain: ['json'] },
  'images.edit': { plain: ['json'] },
  'video.submit': { plain: ['task'] },
  'video.status': { plain: ['task-progress'] },
  'video.content': { plain: ['bytes', 'json'] },
  'video.moderation': { plain: ['json'] },
  'audio.speech': { plain: ['bytes'] },
  'audio.transcribe': { plain: ['json'] },
  'audio.translate': { plain: ['json'] },
  'assets.createGroup': { plain: ['json'] },
  'assets.deleteGroup': { plain: ['json'] },
  'assets.create': { plain: ['json'] },
  'assets.get': { plain: ['json'] },
  'assets.delete': { plain: ['json'] },
  'assets.createValidationSession': { plain: ['json'] },
  'assets.getValidationResult': { plain: ['json'] },
};

/** Every operation the contract knows. */
export const operationNames = Object.keys(resultKinds) as OperationName[];

/** The operations that ask about a task `video.submit` started. */
export const taskQueries: ReadonlySet<OperationName> = new Set(['video.status', 'video.content', 'video.moderation']);

/** The schema each route validates its client request with, where core holds one: a case's request goes through it, defaults and all, as a client's would. */
export const clientRequestSchemas: { [Name in OperationName]?: { safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: { message: string } } } } = {
  chat: chatCompletionRequestSchema,
  responses: responsesRequestSchema,
  'native.generate': nativeGenerateRequestSchema,
  'native.embed': nativeEmbedRequestSchema,
  'native.batchEmbed': nativeBatchEmbedRequestSchema,
  'images.generate': imageRequestSchema,
  'images.edit': imageRequestSchema,
  'video.submit': videoSubmitRequestSchema,
  'audio.speech': speechRequestSchema,
  'assets.createGroup': assetGroupCreateRequestSchema,
  'assets.create': assetCreateRequestSchema,
  'assets.createValidationSession': validationSessionRequestSchema,
};
