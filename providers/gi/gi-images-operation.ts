import { GatewayError, type ImageRequest, type OperationCall, type OperationResult, type ProviderHost } from '../../core/index.js';
import { callGi, jsonBody, multipartBody } from './call-gi.js';
import { fromGiResponse } from './from-gi-response.js';
import { invalidGiResponse } from './gi-error.js';
import type { GiOptions } from './gi-options.js';
import type { GiRequestFields } from './gi-request-schema.js';
import { readGiRequest } from './read-gi-request.js';
import { resolveGiImage, type GiImageFile } from './resolve-gi-images.js';
import { toGiEditForm, toGiGenerationBody } from './to-gi-request.js';

/** A request checked and its images in hand: the same for every channel the request tries. */
interface PreparedGiRequest {
  fields: GiRequestFields;
  references: GiImageFile[];
  mask?: GiImageFile;
}

async function prepare(host: ProviderHost, request: ImageRequest, operation: 'generate' | 'edit', signal: AbortSignal): Promise<PreparedGiRequest> {
  const plan = readGiRequest(request, operation);
  const references: GiImageFile[] = [];
  // One at a time: each fetch is capped by the gateway, and 16 parallel downloads of 20 MB would not be.
  for (const [index, source] of plan.references.entries()) references.push(await resolveGiImage(host, source, `image-${index + 1}`, signal));
  const mask = plan.mask === undefined ? undefined : await resolveGiImage(host, plan.mask, 'mask', signal);
  return { fields: plan.fields, references, mask };
}

// Failover calls the next channel's handler (another provider instance) with the same request
// object, so the images are fetched once per request, not once per channel.
const prepared = new WeakMap<ImageRequest, Promise<PreparedGiRequest>>();

/**
 * `images.generate` and `images.edit` for gi models on an OpenAI-format upstream. Without
 * reference images the request goes to `/images/generations` as JSON; with any (edits always
 * have one) it goes to `/images/edits` as multipart with `image[]` files, because the
 * upstream's generations endpoint takes no images (upstreams.md §2.7). The answer is the
 * upstream's, byte for byte; the usage bills the images it actually holds.
 */
export function createGiImagesOperation(host: ProviderHost, operation: 'generate' | 'edit') {
  return async (call: OperationCall<ImageRequest, GiOptions>): Promise<OperationResult> => {
    let preparing = prepared.get(call.request);
    if (preparing === undefined) {
      preparing = prepare(host, call.request, operation, call.signal);
      prepared.set(call.request, preparing);
      preparing.catch(() => prepared.delete(call.request));
    }
    const { fields, references, mask } = await preparing;

    const response =
      references.length === 0
        ? await callGi(host, call, '/images/generations', jsonBody(toGiGenerationBody(fields, call.upstreamModel)))
        : await callGi(host, call, '/images/edits', await multipartBody(toGiEditForm(fields, call.upstreamModel, references, mask)));
    let text: string;
    try {
      text = await response.body.text();
    } catch (error) {
      // The upstream client already judged a body that broke off or stalled (a retryable timeout or connection error).
      throw GatewayError.is(error) ? error : invalidGiResponse(error);
    }
    const answer = fromGiResponse(text);
    return { kind: 'json', body: answer.body, usage: answer.usage };
  };
}
