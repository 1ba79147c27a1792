import type { OperationName } from '../../contracts/provider/operation-call.js';
import type { OperationResult } from '../../contracts/provider/operation-results.js';
import { operationResultKinds } from '../../contracts/operation-results.js';
import { taskQueryOperations } from '../../pipeline/operation-invocation.js';
import { assetCreateRequestSchema, assetGroupCreateRequestSchema } from '../../contracts/asset-requests.js';
import { speechRequestSchema } from '../../contracts/audio-requests.js';
import { chatCompletionRequestSchema } from '../../contracts/chat-completion-request.js';
import { embeddingsRequestSchema } from '../../contracts/embeddings-request.js';
import { imageRequestSchema } from '../../contracts/image-requests.js';
import { messagesRequestSchema } from '../../contracts/messages-request.js';
import { nativeBatchEmbedRequestSchema, nativeEmbedRequestSchema, nativeGenerateRequestSchema } from '../../contracts/native-requests.js';
import { responsesRequestSchema } from '../../contracts/responses-request.js';
import { videoSubmitRequestSchema } from '../../contracts/video-requests.js';

type Kind = OperationResult['kind'];

/**
 * The result kinds the gateway accepts from each operation (`operationResultKinds`), split by
 * how the client asked: a streamable operation answers `stream` when the client asked for a
 * stream and `json` otherwise; `video.submit` answers `task`, `video.status` `task-progress`.
 */
export const resultKinds = {} as Record<OperationName, { plain: readonly Kind[]; streamed?: readonly Kind[] }>;
for (const [name, kinds] of Object.entries(operationResultKinds) as Array<[OperationName, readonly Kind[]]>) {
  resultKinds[name] = { plain: kinds.filter((kind) => kind !== 'stream'), streamed: kinds.includes('stream') ? ['stream'] : undefined };
}

/** Every operation the contract knows. */
export const operationNames = Object.keys(resultKinds) as OperationName[];

/**
 * The operations whose routes answer an upstream's refusal of the request as the gateway's
 * 502 upstream error carrying the upstream's own code and param (spec part 2, Errors: video
 * and asset endpoints pass upstream errors through), where the other routes answer the client
 * a 4xx. Either way the refusal is not retried: another channel would refuse it too.
 */
export const refusalsPassedThrough: ReadonlySet<OperationName> = new Set([
  'video.submit',
  'video.status',
  'video.content',
  'video.moderation',
  'assets.createGroup',
  'assets.deleteGroup',
  'assets.create',
  'assets.get',
  'assets.delete',
  'assets.createValidationSession',
  'assets.getValidationResult',
]);

/** The operations that ask about a task `video.submit` started. */
export const taskQueries: ReadonlySet<OperationName> = new Set(taskQueryOperations);

/**
 * The schema each route validates its client request with, where core holds one and the
 * route hands the parsed body to the operation as it is: a case's request goes through it,
 * defaults and all, as a client's would. `assets.createValidationSession` is not here: its
 * route checks an empty client body, then asks the operation with the callback address the
 * gateway makes (`ValidationSessionCreation`).
 */
export const clientRequestSchemas: { [Name in OperationName]?: { safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: { message: string } } } } = {
  chat: chatCompletionRequestSchema,
  responses: responsesRequestSchema,
  messages: messagesRequestSchema,
  'native.generate': nativeGenerateRequestSchema,
  'native.embed': nativeEmbedRequestSchema,
  'native.batchEmbed': nativeBatchEmbedRequestSchema,
  embeddings: embeddingsRequestSchema,
  'images.generate': imageRequestSchema,
  'images.edit': imageRequestSchema,
  'video.submit': videoSubmitRequestSchema,
  'audio.speech': speechRequestSchema,
  'assets.createGroup': assetGroupCreateRequestSchema,
  'assets.create': assetCreateRequestSchema,
};
