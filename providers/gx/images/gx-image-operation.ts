import { readUpstreamAnswer, type GoogleApiOptions, type OperationCall, type OperationResult, type ProviderHost } from '../../../core/index.js';
import { callGx } from '../call-gx.js';
import { estimateGxImagePlanUsage } from './estimate-gx-image-usage.js';
import { fetchGxReferenceImage } from './fetch-gx-reference-image.js';
import { fromGxImageResponse } from './from-gx-image-response.js';
import { gxResponseExpected } from '../gx-error.js';
import type { GxImagePlan } from './read-gx-image-request.js';
import { toGxImageRequest } from './to-gx-image-request.js';

/**
 * `images.generate` and `images.edit` for the vendor-G image models (spec part 2: the two
 * routes take the same payload and give the same answer): from the plan `prepare` made of the
 * request (`readGxImageRequest`), every reference image read (URLs through the media guard, in parallel), and one non-stream
 * `generateContent` call made; its answer becomes the images response.
 */
export function createGxImageOperation(host: ProviderHost) {
  return async (call: OperationCall<GxImagePlan, GoogleApiOptions>): Promise<OperationResult> => {
    const plan = call.request;
    const images = await Promise.all(
      plan.parts.flatMap((part) => (part.kind === 'image' ? [fetchGxReferenceImage(part.source, part.param, host.media, call.signal)] : [])),
    );
    const created = Math.floor(host.now() / 1000);
    const response = await callGx(host, call, call.upstreamModel, 'generateContent', toGxImageRequest(plan, images));
    const json = await readUpstreamAnswer(response.body, gxResponseExpected);
    const result = fromGxImageResponse(json, { created, withText: plan.withText, estimate: (count) => estimateGxImagePlanUsage(plan, count) });
    return { kind: 'json', body: result.body, usage: result.usage };
  };
}
