import type { FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import { GatewayError } from '../../core/errors/gateway-error.js';
import { apiTokenOf } from '../auth/route-auth.js';
import type { AssetOwnershipRepository } from './asset-ownership-repository.js';
import { quoted } from '../../core/errors/client-text.js';

const mediaTypes = ['image_url', 'video_url', 'audio_url'] as const;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The `asset://` references of a video submission: the flat `image` and every media item of `metadata.content`. */
export function assetReferences(body: unknown): Array<{ id: string; param: string }> {
  if (!isObject(body)) return [];
  const found: Array<{ id: string; param: string }> = [];
  const add = (value: unknown, param: string) => {
    if (typeof value === 'string' && value.startsWith('asset://')) found.push({ id: value.slice('asset://'.length), param });
  };
  add(body.image, 'image');
  const content = isObject(body.metadata) ? body.metadata.content : undefined;
  if (Array.isArray(content)) {
    content.forEach((item, index) => {
      if (!isObject(item)) return;
      for (const type of mediaTypes) if (isObject(item[type])) add((item[type] as Record<string, unknown>).url, `metadata.content[${index}].${type}.url`);
    });
  }
  return found;
}

/**
 * A `preHandler` for the video submit routes (`POST /v1/video/generations` and `/v1/videos`),
 * registered on those two routes only: every `asset://` reference must name an asset of the
 * caller's user, else the submission is a 404 before anything is reserved (the video route
 * and the provider do not know who owns an asset). Multipart bodies are read later by their
 * route and are not checked here; the Seedance-style models take JSON only.
 */
export function assetReferenceGuard(repository: AssetOwnershipRepository): preHandlerHookHandler {
  const check = async (references: Array<{ id: string; param: string }>, userId: number): Promise<void> => {
    for (const { id, param } of references) {
      const record = await repository.asset(id);
      if (record === undefined || record.user_id !== userId) {
        throw new GatewayError(404, 'asset_not_found', `${param}: there is no asset ${quoted(id)} in your asset library; GET /v1/assets lists yours`, { param });
      }
    }
  };
  // A callback hook: most submissions name no asset and have nothing to await.
  return (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void => {
    const references = assetReferences(request.body);
    if (references.length === 0) return done();
    // A submission without an API token is refused (401), never waved through unchecked.
    Promise.resolve()
      .then(() => check(references, apiTokenOf(request).token.user_id))
      .then(() => done(), done);
  };
}
