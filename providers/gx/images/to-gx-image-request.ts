import type { GxInlineImage } from './fetch-gx-reference-image.js';
import type { GxImagePlan } from './read-gx-image-request.js';

type GxRequestPart = { text: string } | { inlineData: GxInlineImage };

/** The `generateContent` body for an image request (upstreams.md §1.2, §1.7). */
export interface GxImageGenerateBody {
  contents: [{ role: 'user'; parts: GxRequestPart[] }];
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
  const parts = plan.parts.map((part): GxRequestPart => {
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
