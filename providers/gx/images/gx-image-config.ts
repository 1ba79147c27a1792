/** The output tiers of `imageConfig.imageSize` (upstreams.md §1.2). */
export type GxImageSize = '1K' | '2K' | '4K';

// Spec part 2, vendor-G family: "size to aspect ratio".
const ratioOfPixelSize: Readonly<Record<string, string>> = {
  '256x256': '1:1',
  '512x512': '1:1',
  '1024x1024': '1:1',
  '1536x1024': '3:2',
  '1024x1536': '2:3',
  '1024x1792': '9:16',
  '1792x1024': '16:9',
};

/** The ratio strings the spec passes on as they are. */
export const gxAspectRatios: readonly string[] = ['1:1', '3:2', '2:3', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9'];

/**
 * `imageConfig.aspectRatio` for the client's `size`: a pixel size of the spec's table gives
 * its ratio, a listed ratio string is used as given, and anything else (or nothing) gives
 * undefined, which leaves the choice to the model's default. Pixel sizes are read without
 * case or surrounding spaces (`1024X1024`).
 */
export function gxAspectRatioOf(size: string | undefined): string | undefined {
  if (size === undefined) return undefined;
  const trimmed = size.trim();
  if (gxAspectRatios.includes(trimmed)) return trimmed;
  return ratioOfPixelSize[trimmed.toLowerCase()];
}

// Spec part 2, vendor-G family: "quality to tier". Keys lower case.
const tierOfQuality: Readonly<Record<string, GxImageSize>> = {
  hd: '2K',
  high: '2K',
  '2k': '2K',
  standard: '1K',
  medium: '1K',
  low: '1K',
  auto: '1K',
  '1k': '1K',
};

const tierOfImageSize: Readonly<Record<string, GxImageSize>> = { '1k': '1K', '2k': '2K', '4k': '4K' };

/** The `quality` values the spec lists, as a client reads them in an error. */
export const gxQualityValues = 'hd, high, 2K, standard, medium, low, auto, 1K';

/** The tier a `quality` value stands for (any case), or undefined when it is not one of {@link gxQualityValues}. */
export const gxTierOfQuality = (quality: string): GxImageSize | undefined => tierOfQuality[quality.trim().toLowerCase()];

/** The tier an `image_size` value stands for (`1K`, `2K`, `4K`, any case), or undefined. */
export const gxTierOfImageSize = (imageSize: string): GxImageSize | undefined => tierOfImageSize[imageSize.trim().toLowerCase()];

/**
 * `imageConfig.imageSize` for the client's `image_size` and `quality`: `image_size` wins when
 * both are given (it names the tier itself, and only it reaches 4K); else the tier of
 * `quality`; else 1K. Both must already be valid values.
 */
export function gxImageSizeOf(imageSize: string | undefined, quality: string | undefined): GxImageSize {
  if (imageSize !== undefined) return gxTierOfImageSize(imageSize) ?? '1K';
  if (quality !== undefined) return gxTierOfQuality(quality) ?? '1K';
  return '1K';
}
