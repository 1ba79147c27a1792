import type { OperationName } from '../contracts/provider/operation-call.js';
import type { Channel } from './channel.js';

/**
 * The routes a client calls each operation on, as `METHOD path` with the route's own
 * placeholders. The questions about a task (`video.status`, `video.content`,
 * `video.moderation`) and the face validation callback name no model: they are asked of the
 * channel that holds the task or session, never routed by model, so they have no route here.
 */
export const operationRoutes: { readonly [Name in OperationName]: readonly string[] } = {
  chat: ['POST /v1/chat/completions'],
  responses: ['POST /v1/responses'],
  messages: ['POST /v1/messages'],
  'native.generate': ['POST /v1beta/models/{model}:generateContent', 'POST /v1beta/models/{model}:streamGenerateContent'],
  'native.embed': ['POST /v1beta/models/{model}:embedContent'],
  'native.batchEmbed': ['POST /v1beta/models/{model}:batchEmbedContents'],
  embeddings: ['POST /v1/embeddings'],
  'images.generate': ['POST /v1/images/generations'],
  'images.edit': ['POST /v1/images/edits'],
  'video.submit': ['POST /v1/video/generations', 'POST /v1/videos'],
  'video.status': [],
  'video.content': [],
  'video.moderation': [],
  'audio.speech': ['POST /v1/audio/speech'],
  'audio.transcribe': ['POST /v1/audio/transcriptions'],
  'audio.translate': ['POST /v1/audio/translations'],
  'assets.createGroup': ['POST /v1/asset-groups'],
  'assets.deleteGroup': ['DELETE /v1/asset-groups/{group_id}'],
  'assets.create': ['POST /v1/assets'],
  'assets.get': ['GET /v1/assets/{virtual_id}'],
  'assets.delete': ['DELETE /v1/assets/{virtual_id}'],
  'assets.createValidationSession': ['POST /v1/visual-validate/session'],
  'assets.getValidationResult': [],
};

const routeOrder = (Object.keys(operationRoutes) as OperationName[]).flatMap((operation) => operationRoutes[operation]);

/**
 * The routes `model` can be called on by a token of `groups`: those of every operation a
 * channel of those groups that lists the model serves, its provider's own or through a
 * translator. In the order of {@link operationRoutes}, each once; none for a model no such
 * channel lists.
 */
export function servedRoutes(channels: readonly Channel[], groups: readonly string[], model: string): string[] {
  const served = new Set<string>();
  for (const channel of channels) {
    if (!groups.some((group) => channel.groups.has(group)) || !channel.lists(model)) continue;
    for (const operation of channel.servedOperations()) for (const route of operationRoutes[operation]) served.add(route);
  }
  return routeOrder.filter((route) => served.has(route));
}
