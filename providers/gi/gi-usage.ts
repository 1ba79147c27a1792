import { emptyUsage, tokenCount, type Usage } from '../../core/index.js';
import { fromOpenAiTokenUsage, type OpenAiTokenUsage } from '../shared/openai-compatible/openai-usage.js';
import type { GiRequestFields } from './gi-request-schema.js';
import type { GiRequestPlan } from './read-gi-request.js';

/**
 * The core usage of an images answer: `images` produced (what `per_image` bills), plus the
 * upstream's token counts and their text / image split when it reports them (upstreams.md
 * §2.7). Without a `usage` the tokens are zero and the count still comes from the upstream's
 * own answer, so the usage stays flagged `upstream`: a `per_image` price is exact either way.
 */
export function giUsage(usage: OpenAiTokenUsage | null | undefined, images: number): Usage {
  const result: Usage = { ...fromOpenAiTokenUsage(usage), images };
  const input = usage?.input_tokens_details;
  if (input !== undefined && input !== null) result.inputModalities = { text: tokenCount(input.text_tokens), image: tokenCount(input.image_tokens) };
  const output = usage?.output_tokens_details;
  if (output !== undefined && output !== null) result.outputModalities = { text: tokenCount(output.text_tokens), image: tokenCount(output.image_tokens) };
  return result;
}

// OpenAI's published output tokens per gpt-image-1 image by quality: square, and the two
// oblong presets. Other sizes scale the square's count by their pixels; `auto` (size or
// quality) counts as the dearest preset, so the reservation is an upper bound.
const squareTokens = { low: 272, medium: 1056, high: 4160 } as const;
const oblongTokens = { low: 408, medium: 1584, high: 6240 } as const;

/** Output tokens one image of this size and quality is expected to cost upstream. */
export function giOutputTokensPerImage(size: string, quality: GiRequestFields['quality']): number {
  const level = quality === 'auto' ? 'high' : quality;
  if (size === '1024x1024') return squareTokens[level];
  if (size === 'auto' || size === '1024x1536' || size === '1536x1024') return oblongTokens[level];
  const [width = 1024, height = 1024] = size.split('x').map(Number);
  return Math.ceil((squareTokens[level] * width * height) / (1024 * 1024));
}

/**
 * The quota to reserve for a prepared request: all `n` images (settlement bills those the
 * upstream returns), the prompt at four UTF-8 bytes a token and the expected output tokens,
 * for operators who price gi by tokens too.
 */
export function estimateGiUsage({ fields }: GiRequestPlan): Usage {
  return {
    ...emptyUsage('estimated'),
    inputTokens: Math.ceil(Buffer.byteLength(fields.prompt, 'utf8') / 4),
    outputTokens: fields.n * giOutputTokensPerImage(fields.size, fields.quality),
    images: fields.n,
  };
}
