/** The sizes every gpt-image model knows (upstreams.md §2.7); `1024x1024` is gi-2's default (spec part 2). */
export const giPresetSizes: readonly string[] = ['1024x1024', '1024x1536', '1536x1024', 'auto'];

/**
 * The bounds of any other `WIDTHxHEIGHT` size. Spec part 2 only says "up to 4K with both
 * dimensions multiples of 16"; upstreams.md §2.7 says the newest gpt-image model takes any
 * `WxH`, and OpenAI's image guide bounds it like this: each side at most 3840 pixels, the long
 * side at most 3 times the short one, between 655,360 and 8,294,400 pixels (3840x2160, 4K UHD).
 */
export const giSizeBounds = { multiple: 16, longestSide: 3840, widestRatio: 3, fewestPixels: 655_360, mostPixels: 8_294_400 } as const;

const pixels = (count: number) => count.toLocaleString('en-US');

/** What is wrong with a `size`, as the end of an error message, or undefined when gi-2 accepts it. */
export function giSizeProblem(size: string): string | undefined {
  if (giPresetSizes.includes(size)) return undefined;
  const match = /^([0-9]{1,5})x([0-9]{1,5})$/.exec(size);
  if (match === null) return `expected ${giPresetSizes.join(', ')}, or WIDTHxHEIGHT in pixels such as 2048x1152`;
  const width = Number(match[1]);
  const height = Number(match[2]);
  const { multiple, longestSide, widestRatio, fewestPixels, mostPixels } = giSizeBounds;
  if (width % multiple !== 0 || height % multiple !== 0) return `both sides must be multiples of ${multiple} pixels (got ${size})`;
  if (Math.max(width, height) > longestSide) return `each side may be at most ${longestSide} pixels (got ${size})`;
  if (width * height < fewestPixels) return `the image must have at least ${pixels(fewestPixels)} pixels, such as 1024x640 (got ${size})`;
  if (width * height > mostPixels) return `the image may have at most ${pixels(mostPixels)} pixels, such as 3840x2160 (got ${size})`;
  if (Math.max(width, height) > widestRatio * Math.min(width, height)) return `the long side may be at most ${widestRatio} times the short side (got ${size})`;
  return undefined;
}
