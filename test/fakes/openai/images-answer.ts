import type { OpenAiBehaviour } from './openai-behaviour.js';
import { fakeImagePng } from './images-png.js';
import { readImagesRequest, type ImagesEndpoint, type ImagesRequestFacts } from './images-request.js';
import { countWords, jsonAnswer, type OpenAiRoute } from './openai-wire.js';

export { pngDimensions, solidPng, fakeImagePng } from './images-png.js';
export { recordedForm, unknownParameterBody, type ImagesEndpoint, type ImagesRequestFacts } from './images-request.js';

/** The `usage` of a gpt-image answer (upstreams.md §2.7). */
export interface ImagesUsage {
  input_tokens: number;
  input_tokens_details: { text_tokens: number; image_tokens: number };
  output_tokens: number;
  output_tokens_details?: { image_tokens: number; text_tokens: number };
  total_tokens: number;
}

// OpenAI's published output tokens per gpt-image-1 image, by quality, for the square and the two
// oblong preset sizes; other sizes scale the square's count by their pixels.
const squareTokens: Record<string, number> = { low: 272, medium: 1056, high: 4160 };
const oblongTokens: Record<string, number> = { low: 408, medium: 1584, high: 6240 };

/** `auto` as the fake resolves it: the square size and high quality. */
const resolvedSize = (size: string) => (size === 'auto' ? '1024x1024' : size);
const resolvedQuality = (quality: string) => (quality === 'auto' ? 'high' : quality);

function outputTokensPerImage(size: string, quality: string): number {
  if (size === '1024x1024') return squareTokens[quality]!;
  if (size === '1024x1536' || size === '1536x1024') return oblongTokens[quality]!;
  const [width, height] = size.split('x').map(Number);
  return Math.ceil((squareTokens[quality]! * width! * height!) / (1024 * 1024));
}

/**
 * The fake's usage for a request: prompt words as text tokens, each input image as 272 image
 * tokens (4160 at `input_fidelity: high`), and OpenAI's output tokens per image times `n`.
 */
export function imagesUsage(facts: ImagesRequestFacts): ImagesUsage {
  const textTokens = countWords(facts.prompt);
  const imageTokens = facts.inputImages * (facts.inputFidelity === 'high' ? 4160 : 272);
  const outputTokens = facts.n * outputTokensPerImage(resolvedSize(facts.size), resolvedQuality(facts.quality));
  return {
    input_tokens: textTokens + imageTokens,
    input_tokens_details: { text_tokens: textTokens, image_tokens: imageTokens },
    output_tokens: outputTokens,
    output_tokens_details: { image_tokens: outputTokens, text_tokens: 0 },
    total_tokens: textTokens + imageTokens + outputTokens,
  };
}

/**
 * A gpt-image answer in the key order of the recorded one (fixture
 * openai-image-edit-gpt-image.json) with `usage` last: `n` small real PNGs (see
 * {@link fakeImagePng}) as `b64_json`; the fake always draws PNG, whatever `output_format` says.
 */
export function imagesAnswerBody(facts: ImagesRequestFacts, usage: ImagesUsage = imagesUsage(facts), created = Math.floor(Date.now() / 1000)): Record<string, unknown> {
  return {
    created,
    background: facts.background,
    data: Array.from({ length: facts.n }, (_, index) => ({ b64_json: fakeImagePng(index).toString('base64') })),
    output_format: facts.outputFormat,
    quality: resolvedQuality(facts.quality),
    size: resolvedSize(facts.size),
    usage,
  };
}

/** OpenAI's refusal of a prompt or an image by its safety system: 400 `moderation_blocked`. */
export function moderationBlockedBody(message = 'Your request was rejected by the safety system. If you believe this is an error, contact us at help.openai.com and include the request ID req_fake.'): {
  error: Record<string, unknown>;
} {
  return { error: { message, type: 'image_generation_user_error', param: null, code: 'moderation_blocked' } };
}

// What a canned answer stands for: a short prompt at the default size and quality.
const cannedFacts: ImagesRequestFacts = {
  model: 'gpt-image-1',
  prompt: 'a canned answer',
  n: 1,
  size: '1024x1024',
  quality: 'high',
  background: 'opaque',
  outputFormat: 'png',
  inputImages: 0,
  inputFidelity: 'low',
};

/** Behaviours for the image routes, built from the fake's general ones (`status` + `body`, `json`). */
export const imagesBehaviours = {
  /** The next request is refused by the safety system. */
  moderationBlocked: (): OpenAiBehaviour => ({ status: 400, body: moderationBlockedBody() }),
  /** The next request succeeds with `data: []`, so no image at all (usage reports the prompt only). */
  noImages: (): OpenAiBehaviour => ({ json: imagesAnswerBody({ ...cannedFacts, n: 0 }) }),
  /** The next request answers `count` square images, whatever it asked for (once its fields pass the checks). */
  images: (count: number): OpenAiBehaviour => ({ json: imagesAnswerBody({ ...cannedFacts, n: count }) }),
};

/**
 * `POST /v1/images/generations` and `/v1/images/edits` (upstreams.md §2.7): the request is
 * read and checked (see `readImagesRequest`), then answered with `n` images and gpt-image
 * usage. A `json` behaviour replaces the answer; a `usage` behaviour replaces its usage.
 */
export function imagesRoute(endpoint: ImagesEndpoint): OpenAiRoute {
  return async ({ request, behaviour, started }) => {
    const reading = await readImagesRequest(request, endpoint);
    if ('refusal' in reading) return jsonAnswer(400, reading.refusal, started);
    if (behaviour.json !== undefined) return jsonAnswer(200, behaviour.json, started);
    return jsonAnswer(200, imagesAnswerBody(reading.facts, behaviour.usage as ImagesUsage | undefined), started);
  };
}
