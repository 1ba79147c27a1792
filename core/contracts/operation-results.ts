import type { OperationRequests } from './operation-requests.js';
import type { BytesResult, JsonResult, StreamResult, TaskAccepted, TaskProgress } from './provider/operation-results.js';

/**
 * What each operation's handler answers, by operation: the kinds of result its route and the
 * task service deliver, with an entry for every operation of `OperationRequests` (`tsc` refuses
 * a provider type otherwise). A handler's type says what it returns, so core never re-checks the
 * kind of a built-in's answer; a plugin written in plain JavaScript is checked once, where its
 * answer enters core (`core/pipeline/invoke-operation.ts`).
 */
export interface OperationResults {
  /** `json`, or `stream` when the client asked for a stream. */
  chat: JsonResult | StreamResult;
  /** `json`, or `stream` when the client asked for a stream. */
  responses: JsonResult | StreamResult;
  /** Only ever served through a translator (`messages-to-chat`): `json`, or `stream`. */
  messages: JsonResult | StreamResult;
  /** `json`, or `stream` for `:streamGenerateContent`. */
  'native.generate': JsonResult | StreamResult;
  'native.embed': JsonResult;
  'native.batchEmbed': JsonResult;
  /** Only ever served through a translator (`embeddings-to-native`). */
  embeddings: JsonResult;
  'images.generate': JsonResult;
  'images.edit': JsonResult;
  /** The upstream accepted the task; core stores it and polls it. */
  'video.submit': TaskAccepted;
  /** How the task is doing. */
  'video.status': TaskProgress;
  /** The finished video's bytes, passed through as they arrive. */
  'video.content': BytesResult;
  'video.moderation': JsonResult;
  /** The synthesized audio, passed through as it arrives. */
  'audio.speech': BytesResult;
  'audio.transcribe': JsonResult;
  'audio.translate': JsonResult;
  'assets.createGroup': JsonResult;
  'assets.deleteGroup': JsonResult;
  'assets.create': JsonResult;
  'assets.get': JsonResult;
  'assets.delete': JsonResult;
  'assets.createValidationSession': JsonResult;
  'assets.getValidationResult': JsonResult;
}

/** The kinds of result an operation may answer: the `kind`s of its {@link OperationResults} entry. */
export type ResultKindOf<Name extends keyof OperationRequests> = OperationResults[Name]['kind'];

/**
 * {@link OperationResults} at run time: the kinds each operation may answer, for the check of
 * a plugin's answer where it enters core. Its type makes `tsc` refuse a kind the map does not
 * allow, and an operation left out.
 */
export const operationResultKinds: { readonly [Name in keyof OperationRequests]: readonly ResultKindOf<Name>[] } = {
  chat: ['json', 'stream'],
  responses: ['json', 'stream'],
  messages: ['json', 'stream'],
  'native.generate': ['json', 'stream'],
  'native.embed': ['json'],
  'native.batchEmbed': ['json'],
  embeddings: ['json'],
  'images.generate': ['json'],
  'images.edit': ['json'],
  'video.submit': ['task'],
  'video.status': ['task-progress'],
  'video.content': ['bytes'],
  'video.moderation': ['json'],
  'audio.speech': ['bytes'],
  'audio.transcribe': ['json'],
  'audio.translate': ['json'],
  'assets.createGroup': ['json'],
  'assets.deleteGroup': ['json'],
  'assets.create': ['json'],
  'assets.get': ['json'],
  'assets.delete': ['json'],
  'assets.createValidationSession': ['json'],
  'assets.getValidationResult': ['json'],
};
