import { emptyUsage, type Usage } from '../../../core/index.js';
import type { GxImagePlan } from './read-gx-image-request.js';

// Token counts of the family's images, for estimates only (the upstream reports the real
// ones): an output image is 1290 tokens on the 2.5 model and 1120 (1K, 2K) or 2000 (4K) on
// the 3-generation models; a reference image at the 3-generation default resolution is 1120.
const outputImageTokens = { '1K': 1290, '2K': 1290, '4K': 2000 } as const;
const referenceImageTokens = 1120;

/**
 * A bounded guess of what a planned image request uses: the prompt text at four UTF-8 bytes
 * a token, each reference image and each of `images` output images at the family's token
 * counts. One image by default: the family makes one per call whatever `n` says.
 */
export function estimateGxImagePlanUsage(plan: GxImagePlan, images = 1): Usage {
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
 * The quota to reserve for an image request before any upstream call, from the plan
 * `prepare` made of it (`readGxImageRequest`, which refused a bad request before quota was
 * touched): one image, not `n` (the route's estimate would reserve `n`).
 */
export function estimateGxImageUsage(plan: GxImagePlan): Usage {
  return estimateGxImagePlanUsage(plan);
}
