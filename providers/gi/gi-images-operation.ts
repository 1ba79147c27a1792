import { GatewayError, type OperationCall, type ProviderHost } from '../../core/index.js';
import { jsonBody, multipartBody, type PathPrefixOptions } from '../../core/kit/index.js';
import { callOpenAiCompatible } from '../shared/openai-compatible/openai-compatible.js';
import { fromGiResponse } from './from-gi-response.js';
import { giStatusError, invalidGiResponse } from './gi-error.js';
import type { PreparedGiRequest } from './read-gi-request.js';
import { resolveGiImages } from './resolve-gi-images.js';
import { toGiEditForm, toGiGenerationBody } from './to-gi-request.js';

/**
 * `images.generate` and `images.edit` of a prepared request. Without reference images it goes
 * to `/images/generations` as JSON; with any (edits always have one), to `/images/edits` as
 * multipart with `image[]` files: the generations endpoint takes no images (upstreams.md §2.7).
 */
export function createGiImagesOperation(host: ProviderHost) {
  return async (call: OperationCall<PreparedGiRequest, PathPrefixOptions>) => {
    const { fields } = call.request;
    // A failover to another gi channel reuses the images the first attempt fetched.
    const { references, mask } = await call.request.files.get(() => resolveGiImages(host, call.request, call.signal));
    const response =
      references.length === 0
        ? await callOpenAiCompatible(host, call, '/images/generations', { body: jsonBody(toGiGenerationBody(fields, call.upstreamModel)) }, giStatusError)
        : await callOpenAiCompatible(host, call, '/images/edits', { body: await multipartBody(toGiEditForm(fields, call.upstreamModel, references, mask)) }, giStatusError);
    const text = await response.body.text().catch((error: unknown) => {
      // The upstream client already judged a body that broke off or stalled (a retryable timeout or connection error).
      throw GatewayError.is(error) ? error : invalidGiResponse(error);
    });
    return fromGiResponse(text);
  };
}
