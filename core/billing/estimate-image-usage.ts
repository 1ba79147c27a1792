import type { GatewayConfig } from '../config/config-schema.js';
import type { ImageRequest } from '../contracts/image-requests.js';
import type { Usage } from '../contracts/usage.js';

/** More images than any family makes in one call (gi-2's `n` goes up to 10). */
const maxImagesPerCall = 10;

const positiveInteger = (value: unknown): number | undefined => (typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined);
const field = (value: unknown, name: string): unknown => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined);

/**
 * How many images a request may produce, under any family's field for it: `n`,
 * `parameters.n` (the Q family), or a sequential Seedream batch
 * (`sequential_image_generation: auto`, up to `sequential_image_generation_options.max_images`,
 * default 4). At least 1, at most 10.
 */
export function requestedImages(request: ImageRequest): number {
  const sequential =
    request.sequential_image_generation === 'auto' ? (positiveInteger(field(request.sequential_image_generation_options, 'max_images')) ?? 4) : undefined;
  const count = Math.max(positiveInteger(request.n) ?? 1, positiveInteger(field(request.parameters, 'n')) ?? 1, sequential ?? 1);
  return Math.min(count, maxImagesPerCall);
}

/**
 * The usage to reserve quota by before an image call: every image the request may produce,
 * the prompt at a quarter of its UTF-8 bytes, and `billing.estimated_output_tokens` per image
 * for models priced by tokens. Settlement bills the images actually made.
 */
export function estimateImageUsage(request: ImageRequest, config: Pick<GatewayConfig, 'billing'>): Usage {
  const images = requestedImages(request);
  return {
    inputTokens: Math.ceil(Buffer.byteLength(request.prompt ?? '', 'utf8') / 4),
    cachedInputTokens: 0,
    outputTokens: images * config.billing.estimated_output_tokens,
    reasoningTokens: 0,
    images,
    source: 'estimated',
  };
}
