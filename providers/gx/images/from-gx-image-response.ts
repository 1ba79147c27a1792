import { emptyUpstreamAnswer, noOutputForPrompt, promptBlocked, toImagesUsage, type GatewayError, type ImagesUsage, type Usage } from '../../../core/index.js';
import { convertGxUsage, isGxImagePart } from '../convert-gx-usage.js';
import { gxInBandError, gxPromptBlocked, invalidGxResponse } from '../gx-error.js';
import { gxGenerateContentResponseSchema, type GxCandidate } from '../gx-schemas.js';

// The client-facing answer on /v1/images/generations and /v1/images/edits (spec part 2,
// "Image generation response (vendor-G flat family)").

/** One generated image: base64 without a `data:` prefix, `url` always empty (the family answers inline only). */
interface GxImagesDatum {
  b64_json: string;
  url: '';
  /** The model's text about the image; on `data[0]` only, with `response_modalities: image-text`. */
  revised_prompt?: string;
}

/** The whole answer; `metadata.text` is a copy of `data[0].revised_prompt`, present with it. */
interface GxImagesResponse {
  created: number;
  data: GxImagesDatum[];
  metadata?: { text: string };
  /** Token counts from the upstream's `usageMetadata`. */
  usage: ImagesUsage;
}

/** What the answer needs besides the upstream body. */
export interface GxImageResponseContext {
  /** Unix seconds. */
  created: number;
  /** The client asked for `response_modalities: image-text`: the model's text goes into `revised_prompt` and `metadata.text`. */
  withText: boolean;
  /** Token counts to bill when the upstream reports none (else the answer is billed by its size, and base64 images are large). */
  estimate: (images: number) => Usage;
}

/** The client answer and what it used. */
export interface GxImageResult {
  body: GxImagesResponse;
  /** Tokens from `usageMetadata` (the context's estimate without it) and `images`, the images returned. */
  usage: Usage;
}

// Finish reasons that mean a policy withheld the output (upstreams.md §1.3 lists them all):
// the same request fails anywhere, so it is the client's to change. Every other reason
// without an image (STOP, NO_IMAGE, IMAGE_OTHER, OTHER, MAX_TOKENS…) may go better on a retry.
const policyFinishReasons = new Set([
  'SAFETY',
  'PROHIBITED_CONTENT',
  'BLOCKLIST',
  'SPII',
  'RECITATION',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
  'IMAGE_RECITATION',
]);

const excerpt = (text: string): string => (text.length > 300 ? `${text.slice(0, 300)}…` : text);

const present = (text: string | null | undefined): text is string => typeof text === 'string' && text !== '';

/** The answer's images and text, every candidate in order; thought parts (interim drafts and thinking) left out. */
function collectOutput(candidates: readonly GxCandidate[]): { images: string[]; text: string } {
  const images: string[] = [];
  let text = '';
  for (const part of candidates.flatMap((candidate) => candidate.content?.parts ?? [])) {
    if (isGxImagePart(part) && present(part.inlineData?.data)) images.push(part.inlineData.data);
    else if (part.thought !== true && typeof part.text === 'string') text += part.text;
  }
  return { images, text: text.trim() };
}

/** Why there is no image: 400 `prompt_blocked` when a policy withheld it, else a retryable 502 `empty_response` (the channel's failure only when there was no candidate at all). */
function noImageError(candidates: readonly GxCandidate[], text: string): GatewayError {
  const withheld = candidates.find((candidate) => policyFinishReasons.has(candidate.finishReason ?? ''));
  if (withheld !== undefined) {
    const detail = present(withheld.finishMessage) ? `: ${withheld.finishMessage}` : '';
    return promptBlocked(`the upstream withheld the image (${withheld.finishReason})${detail}; change the prompt or the reference images`);
  }
  const reasons = [...new Set(candidates.map((candidate) => candidate.finishReason).filter(present))];
  const why = candidates.length === 0 ? 'without any candidate' : `without an image (finish reason ${reasons.join(', ') || 'none'})`;
  const said = text === '' ? '' : `; the model said: ${excerpt(text)}`;
  const message = `the upstream answered ${why}${said}; retry the request`;
  // Candidates without an image: the model answered the prompt in words, which the prompt may have asked for.
  return candidates.length === 0 ? emptyUpstreamAnswer(message) : noOutputForPrompt(message);
}

/**
 * Translates a `generateContent` answer of an image model into the image endpoints' answer
 * (spec part 2): one `data` entry per output image (`url` always `""`), the model's text as
 * `data[0].revised_prompt` and `metadata.text` when `withText`, and token usage.
 * @throws GatewayError 400 `prompt_blocked` when `promptFeedback.blockReason` is set or a
 *   candidate finished for a policy reason without an image; 502 `empty_response`
 *   (retryable) for any other answer without an image; 502 `upstream_invalid_response` for
 *   a body of another shape; the mapped upstream error for an `{error}` body.
 */
export function fromGxImageResponse(json: unknown, context: GxImageResponseContext): GxImageResult {
  const upstreamError = gxInBandError(json);
  if (upstreamError !== undefined) throw upstreamError;
  const parsed = gxGenerateContentResponseSchema.safeParse(json);
  if (!parsed.success) throw invalidGxResponse(parsed.error);
  const response = parsed.data;
  const blocked = gxPromptBlocked(response, 'the request', 'change the prompt or the reference images');
  if (blocked !== undefined) throw blocked;

  const candidates = response.candidates ?? [];
  const { images, text } = collectOutput(candidates);
  if (images.length === 0) throw noImageError(candidates, text);

  const usageMetadata = response.usageMetadata;
  const usage = usageMetadata === undefined || usageMetadata === null ? context.estimate(images.length) : convertGxUsage(usageMetadata, { images: images.length, audio: false });
  usage.images = images.length;

  const revised = context.withText && text !== '' ? text : undefined;
  const data = images.map((image, index): GxImagesDatum =>
    index === 0 && revised !== undefined ? { b64_json: image, url: '', revised_prompt: revised } : { b64_json: image, url: '' },
  );
  // Keys in the order of the spec's table: created, data, metadata, usage.
  const body: GxImagesResponse =
    revised === undefined
      ? { created: context.created, data, usage: toImagesUsage(usage) }
      : { created: context.created, data, metadata: { text: revised }, usage: toImagesUsage(usage) };
  return { body, usage };
}
