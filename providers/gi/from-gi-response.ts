import { parseUpstreamJson, readOpenAiError, type Usage } from '../../core/index.js';
import { convertGiUsage } from './convert-gi-usage.js';
import { emptyGiResponse, giInBandError, invalidGiResponse } from './gi-error.js';
import { giImagesResponseSchema } from './gi-schemas.js';

/** The client's answer and what it cost. */
export interface GiAnswer {
  /** The upstream's JSON text, passed on byte for byte. */
  body: string;
  usage: Usage;
}

const present = (value: string | null | undefined): boolean => typeof value === 'string' && value !== '';

/**
 * Reads a 2xx images answer (upstreams.md §2.7; fixture openai-image-edit-gpt-image.json).
 * The body goes to the client as it came: `created`, `data[].b64_json`, `usage` and the
 * upstream's other fields (`background`, `output_format`, `quality`, `size`). Only entries
 * that carry an image count; none at all is `empty_response`. An error body is judged like
 * an error status, a body that is not JSON is an invalid answer.
 */
export function fromGiResponse(text: string): GiAnswer {
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
  if (images === 0) throw emptyGiResponse();
  return { body: text, usage: convertGiUsage(parsed.data.usage, images) };
}
