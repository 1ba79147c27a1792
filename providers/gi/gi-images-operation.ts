import {
  callOpenAiCompatible,
  GatewayError,
  jsonBody,
  multipartBody,
  type OperationCall,
  type PathPrefixOptions,
  type ProviderHost,
} from '../../core/index.js';
import { fromGiResponse } from './from-gi-response.js';
import { giStatusError, invalidGiResponse } from './gi-error.js';
import type { PreparedGiRequest } from './read-gi-request.js';
import { resolveGiImages } from './resolve-gi-images.js';
import { toGiEditForm, toGiGenerationBody } from './to-gi-request.js';

/**
 * `images.generate` and `images.edit` for gi models on an OpenAI-format upstream. Without
 * reference images the request goes to `/images/generations` as JSON; with any (edits always
 * have one) it goes to `/images/edits` as multipart with `image[]` files, because the
 * upstream's generations endpoint takes no images (upstreams.md §2.7). The answer is the
 * upstream's, byte for byte; the usage bills the images it actually holds. The request
 * arrives prepared (see `prepareGiRequest`).
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
