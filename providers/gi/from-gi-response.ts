import { fromOpenAiTokenUsage, parseUpstreamJson, readOpenAiError, tokenCount, type OpenAiTokenUsage, type Usage } from '../../core/index.js';
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
  return { body: text, usage: giUsage(parsed.data.usage, images) };
}
