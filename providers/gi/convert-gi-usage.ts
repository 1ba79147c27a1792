import type { Usage } from '../../core/index.js';
import type { GiUsage } from './gi-schemas.js';

const count = (value: number | null | undefined): number => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0);

/**
 * The core usage of an images answer: `images` produced (what `per_image` bills), plus the
 * upstream's token counts and their text / image split when it reports them (upstreams.md
 * §2.7). Without a `usage` the tokens are zero and the count still comes from the upstream's
 * own answer, so the usage stays flagged `upstream`: a `per_image` price is exact either way.
 */
export function convertGiUsage(usage: GiUsage | null | undefined, images: number): Usage {
  const result: Usage = {
    inputTokens: count(usage?.input_tokens),
    cachedInputTokens: 0,
    outputTokens: count(usage?.output_tokens),
    reasoningTokens: 0,
    images,
    source: 'upstream',
  };
  const input = usage?.input_tokens_details;
  if (input !== undefined && input !== null) result.inputModalities = { text: count(input.text_tokens), image: count(input.image_tokens) };
  const output = usage?.output_tokens_details;
  if (output !== undefined && output !== null) result.outputModalities = { text: count(output.text_tokens), image: count(output.image_tokens) };
  return result;
}
