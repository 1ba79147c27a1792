import { sniffImageType } from '../../core/index.js';

/** The image types the upstream takes as `input_reference` (png, jpeg, webp), lower case. */
export const srImageMimeTypes: readonly string[] = ['image/png', 'image/jpeg', 'image/webp'];

/** {@link srImageMimeTypes} plus `image/jpg`, which some hosts send for JPEG; for `MediaFetcher.fetch`, which refuses other types from the headers. */
export const srFetchedMimeTypes: readonly string[] = [...srImageMimeTypes, 'image/jpg'];

/** The accepted image type the first bytes reveal, or undefined (core's sniffer among {@link srImageMimeTypes}). */
export const sniffSrImageType = (bytes: Uint8Array): string | undefined => sniffImageType(bytes, srImageMimeTypes);
