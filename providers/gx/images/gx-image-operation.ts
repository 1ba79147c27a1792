import { emptyUsage, type MediaFetcher, type OperationCall, type ProviderHost, type Usage, type JsonResult } from '../../../core/index.js';
import { fetchableImageTypes, fetchImage, readImageSourceText, readUpstreamAnswer, type ImageFormats } from '../../../core/kit/index.js';
import type { GoogleApiOptions } from '../../shared/google-api/google-api.js';
import { callGx } from '../call-gx.js';
import { gxResponseExpected } from '../gx-error.js';
import { fromGxImageResponse } from './from-gx-image-response.js';
import type { GxImagePlan } from './read-gx-image-request.js';

/** A reference image as the upstream gets it: `inlineData` of a user part, `data` in base64. */
interface GxInlineImage {
  mimeType: string;
  data: string;
}

/** The reference image formats the spec accepts for the vendor-G models, as their bytes show them. */
const gxReferenceImageFormats: ImageFormats = {
  types: ['image/png', 'image/jpeg', 'image/webp', 'image/heic', 'image/heif'],
  names: 'png, jpeg, webp, heic or heif',
  usedAs: 'references',
};

const fetchableTypes = fetchableImageTypes(gxReferenceImageFormats);

/**
 * Reads one reference image as the client gave it (an http(s) URL through the SSRF guard, a
 * data: URI, or raw base64) and checks its format by its magic numbers, whatever its URL,
 * Content-Type or data URI claimed: the MIME type sent upstream is the one the bytes show.
 * @throws GatewayError 400 naming `param` for a source that cannot be read, refused by the
 *   media guard, too large, or not a png, jpeg, webp, heic or heif image (gif, bmp, tiff…).
 */
export async function fetchGxReferenceImage(source: string, param: string, media: MediaFetcher, signal: AbortSignal): Promise<GxInlineImage> {
  const { kind, url } = readImageSourceText(source, param);
  const image = await fetchImage(media, url, param, gxReferenceImageFormats, kind === 'http' ? { allowedMimeTypes: fetchableTypes, signal } : { signal });
  return { mimeType: image.mimeType, data: image.data.toString('base64') };
}

/** The `generateContent` body for an image request (upstreams.md §1.2, §1.7). */
export interface GxImageGenerateBody {
  contents: [{ role: 'user'; parts: Array<{ text: string } | { inlineData: GxInlineImage }> }];
  generationConfig: {
    responseModalities: Array<'TEXT' | 'IMAGE'>;
    temperature?: number;
    topP?: number;
    imageConfig: { aspectRatio?: string; imageSize: string };
  };
}

/**
 * The upstream body for a planned image request: one user turn with the prompt parts in
 * order (each reference image replaced by `images`, read in the same order),
 * `responseModalities` `["IMAGE"]` or `["TEXT", "IMAGE"]` for image-text, and
 * `imageConfig` with the aspect ratio (left out for the model's default) and the size tier.
 */
export function toGxImageRequest(plan: GxImagePlan, images: readonly GxInlineImage[]): GxImageGenerateBody {
  let next = 0;
  const parts = plan.parts.map((part) => {
    if (part.kind === 'text') return { text: part.text };
    const image = images[next++];
    if (image === undefined) throw new Error(`no fetched image for ${part.param}: the caller must read every reference image first`);
    return { inlineData: { mimeType: image.mimeType, data: image.data } };
  });
  const generationConfig: GxImageGenerateBody['generationConfig'] = {
    responseModalities: plan.withText ? ['TEXT', 'IMAGE'] : ['IMAGE'],
    imageConfig: plan.aspectRatio === undefined ? { imageSize: plan.imageSize } : { aspectRatio: plan.aspectRatio, imageSize: plan.imageSize },
  };
  if (plan.temperature !== undefined) generationConfig.temperature = plan.temperature;
  if (plan.topP !== undefined) generationConfig.topP = plan.topP;
  return { contents: [{ role: 'user', parts }], generationConfig };
}

// Token counts of the family's images, for estimates only (the upstream reports the real
// ones): an output image is 1290 tokens on the 2.5 model and 1120 (1K, 2K) or 2000 (4K) on
// the 3-generation models; a reference image at the 3-generation default resolution is 1120.
const outputImageTokens = { '1K': 1290, '2K': 1290, '4K': 2000 } as const;
const referenceImageTokens = 1120;

/**
 * A bounded guess of what a planned image request uses: the prompt text at four UTF-8 bytes
 * a token, each reference image and each of `images` output images at the family's token
 * counts. As the provider's `estimate`, the quota reserved before any upstream call: one
 * image, not `n` (the route's estimate would reserve `n`; the family makes one per call).
 */
export function estimateGxImageUsage(plan: GxImagePlan, images = 1): Usage {
  let textBytes = 0;
  let references = 0;
  for (const part of plan.parts) {
    if (part.kind === 'text') textBytes += Buffer.byteLength(part.text, 'utf8');
    else references += 1;
  }
  return {
    ...emptyUsage('estimated'),
    inputTokens: Math.ceil(textBytes / 4) + references * referenceImageTokens,
    outputTokens: images * outputImageTokens[plan.imageSize],
    images,
  };
}

/**
 * `images.generate` and `images.edit` for the vendor-G image models (spec part 2: the two
 * routes take the same payload and give the same answer): from the plan `prepare` made of the
 * request (`readGxImageRequest`), every reference image read (URLs through the media guard,
 * in parallel), and one non-stream `generateContent` call made; its answer becomes the
 * images response.
 */
export function createGxImageOperation(host: ProviderHost) {
  return async (call: OperationCall<GxImagePlan, GoogleApiOptions>): Promise<JsonResult> => {
    const plan = call.request;
    const images = await Promise.all(
      plan.parts.flatMap((part) => (part.kind === 'image' ? [fetchGxReferenceImage(part.source, part.param, host.media, call.signal)] : [])),
    );
    const created = Math.floor(host.now() / 1000);
    const response = await callGx(host, call, call.upstreamModel, 'generateContent', toGxImageRequest(plan, images));
    const json = await readUpstreamAnswer(response.body, gxResponseExpected);
    return { kind: 'json', ...fromGxImageResponse(json, { created, withText: plan.withText, estimate: (count) => estimateGxImageUsage(plan, count) }) };
  };
}
