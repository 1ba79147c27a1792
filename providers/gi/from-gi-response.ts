import { z } from 'zod';
import { emptyUpstreamAnswer, type JsonResult } from '../../core/index.js';
import { parseUpstreamJson } from '../../core/kit/index.js';
import { openAiTokenUsageSchema } from '../shared/openai-compatible/openai-usage.js';
import { readOpenAiError } from '../shared/openai-compatible/openai-compatible.js';
import { giInBandError, invalidGiResponse } from './gi-error.js';
import { giUsage } from './gi-usage.js';

// What the gateway reads of an images answer: the images and the usage. Loose on purpose: the
// answer goes to the client as the upstream wrote it, so everything else travels untouched.
const giImagesResponseSchema = z.looseObject({
  data: z.array(z.looseObject({ b64_json: z.string().nullish(), url: z.string().nullish() }).nullable()).nullish(),
  usage: openAiTokenUsageSchema.nullish(),
});

const present = (value: string | null | undefined): boolean => typeof value === 'string' && value !== '';

/**
 * The client's answer to a 2xx images answer (upstreams.md §2.7; fixture
 * openai-image-edit-gpt-image.json): the upstream's JSON text byte for byte (`created`,
 * `data[].b64_json`, `usage` and its other fields), and what it cost. Only entries that carry an image count; none at
 * all is `empty_response`. An error body is judged like an error status, a body that is not
 * JSON is an invalid answer.
 */
export function fromGiResponse(text: string): JsonResult {
  let json: unknown;
  try {
    json = parseUpstreamJson(text);
  } catch (error) {
    throw invalidGiResponse(error);
  }
  const upstreamError = readOpenAiError(json);
  if (upstreamError !== undefined) throw giInBandError(upstreamError);
  const parsed = giImagesResponseSchema.safeParse(json);
  if (!parsed.success) throw invalidGiResponse(parsed.error);
  const images = (parsed.data.data ?? []).filter((item) => item !== null && (present(item.b64_json) || present(item.url))).length;
  // Nothing is billed, and another channel may do better.
  if (images === 0) throw emptyUpstreamAnswer('the upstream returned no image; retry the request');
  return { kind: 'json', body: text, usage: giUsage(parsed.data.usage, images) };
}
