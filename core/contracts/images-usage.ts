import type { Usage } from './usage.js';

/**
 * The `usage` of an images answer (`POST /v1/images/generations` and `/edits`), in the shape of
 * OpenAI's `ImageGenUsage`: totals and their split by modality. Every family that reports tokens
 * answers with this shape, whatever its upstream calls them.
 */
export interface ImagesUsage {
  total_tokens: number;
  input_tokens: number;
  output_tokens: number;
  input_tokens_details: { text_tokens: number; image_tokens: number };
  output_tokens_details: { image_tokens: number; text_tokens: number };
}

/**
 * The images `usage` for a core usage: `total_tokens` is input plus output, and in each
 * direction the tokens not reported as image tokens count as text, so the details add up to
 * the totals (an upstream that gives no split reports all its tokens as text).
 */
export function toImagesUsage(usage: Usage): ImagesUsage {
  const input = usage.inputTokens;
  const output = usage.outputTokens;
  const inputImages = Math.min(usage.inputModalities?.image ?? 0, input);
  const outputImages = Math.min(usage.outputModalities?.image ?? 0, output);
  return {
    total_tokens: input + output,
    input_tokens: input,
    output_tokens: output,
    input_tokens_details: { text_tokens: input - inputImages, image_tokens: inputImages },
    output_tokens_details: { image_tokens: outputImages, text_tokens: output - outputImages },
  };
}
