
import { sniffImageType } from '../../../core/kit/index.js';
/** The image types OpenAI's endpoints take as input (image edits, a video's `input_reference`): png, jpeg and webp, lower case. */
export const openAiImageTypes: readonly string[] = ['image/png', 'image/jpeg', 'image/webp'];

/**
 * {@link openAiImageTypes} plus `image/jpg`, which some hosts send for JPEG: the
 * `allowedMimeTypes` to fetch such an image with (`MediaFetcher.fetch` refuses other types
 * by their headers).
 */
export const openAiFetchedImageTypes: readonly string[] = [...openAiImageTypes, 'image/jpg'];

/** The one of {@link openAiImageTypes} that the first bytes show, or undefined. */
export const sniffOpenAiImageType = (bytes: Uint8Array): string | undefined => sniffImageType(bytes, openAiImageTypes);
