import { emptyUsage, tokenCount, type ModalityTokens, type Usage } from '../../core/index.js';
import type { GxCandidate, GxPart, GxUsageMetadata } from './gx-schemas.js';

/** What a response carried (inline images, thought images not counted; whether inline audio), for bucketing output tokens the upstream did not break down. */
export interface GxProducedOutput {
  images: number;
  audio: boolean;
}

const outputMedia = (part: GxPart, kind: 'image/' | 'audio/'): boolean =>
  part.thought !== true && (part.inlineData?.mimeType ?? '').toLowerCase().startsWith(kind);

/** True for an inline image part that is output, not a thought. */
export const isGxImagePart = (part: GxPart): boolean => outputMedia(part, 'image/');

/** Adds what the candidates carry to `produced` (a stream tallies chunk by chunk) and returns it. */
export function tallyGxProducedOutput(candidates: readonly GxCandidate[] | null | undefined, produced: GxProducedOutput = { images: 0, audio: false }): GxProducedOutput {
  for (const candidate of candidates ?? []) {
    for (const part of candidate.content?.parts ?? []) {
      if (isGxImagePart(part)) produced.images += 1;
      else if (outputMedia(part, 'audio/')) produced.audio = true;
    }
  }
  return produced;
}

type Details = GxUsageMetadata['promptTokensDetails'];

/** Sums per-modality counts; modality names in any case; DOCUMENT (PDF pages) counts as text. */
function byModality(...lists: Details[]): ModalityTokens | undefined {
  let seen = false;
  const totals = { text: 0, audio: 0, image: 0, video: 0 };
  for (const list of lists) {
    for (const entry of list ?? []) {
      seen = true;
      const modality = (entry.modality ?? '').toUpperCase();
      const tokens = tokenCount(entry.tokenCount);
      if (modality === 'TEXT' || modality === 'DOCUMENT') totals.text += tokens;
      else if (modality === 'AUDIO') totals.audio += tokens;
      else if (modality === 'IMAGE') totals.image += tokens;
      else if (modality === 'VIDEO') totals.video += tokens;
    }
  }
  return seen ? totals : undefined;
}

/**
 * Output tokens by modality, bucketed by what was produced (spec part 1, usage object):
 * the upstream's own breakdown when it gives one, with whatever it leaves unassigned
 * counted as text (the image fixture reports IMAGE 1290 of 1318: the rest is the text
 * around the image). Without a breakdown everything goes to the modality produced: image
 * when an image came back, else audio when audio did, else text.
 */
function outputByModality(candidates: number, details: Details, produced: GxProducedOutput | undefined): ModalityTokens {
  const reported = byModality(details);
  if (reported !== undefined) {
    const hasText = (details ?? []).some((entry) => (entry.modality ?? '').toUpperCase() === 'TEXT');
    const text = hasText ? (reported.text ?? 0) : Math.max(0, candidates - (reported.image ?? 0) - (reported.audio ?? 0) - (reported.video ?? 0));
    return { text, audio: reported.audio ?? 0, image: reported.image ?? 0 };
  }
  if (produced !== undefined && produced.images > 0) return { text: 0, audio: 0, image: candidates };
  if (produced?.audio === true) return { text: 0, audio: candidates, image: 0 };
  return { text: candidates, audio: 0, image: 0 };
}

/**
 * The core usage for the upstream's `usageMetadata` (reference-gateway.md §4.9): input is
 * the prompt plus tool-use prompt tokens, output is candidates plus thoughts (total minus
 * input when the upstream reported neither), reasoning is the thoughts, cached is the
 * cached content. Per-modality input comes from the prompt and tool-use breakdowns and is
 * left out when the upstream gave none. Without `usageMetadata`, zeros marked `estimated`
 * (the gateway has no tokenizer for this family), with the images produced still counted.
 */
export function convertGxUsage(usageMetadata: GxUsageMetadata | null | undefined, produced?: GxProducedOutput): Usage {
  if (usageMetadata === undefined || usageMetadata === null) {
    const usage = emptyUsage('estimated');
    if (produced !== undefined && produced.images > 0) usage.images = produced.images;
    return usage;
  }
  const input = tokenCount(usageMetadata.promptTokenCount) + tokenCount(usageMetadata.toolUsePromptTokenCount);
  const thoughts = tokenCount(usageMetadata.thoughtsTokenCount);
  let candidates = tokenCount(usageMetadata.candidatesTokenCount);
  const total = tokenCount(usageMetadata.totalTokenCount);
  if (candidates + thoughts === 0 && total > input) candidates = total - input;

  const usage: Usage = {
    inputTokens: input,
    cachedInputTokens: tokenCount(usageMetadata.cachedContentTokenCount),
    outputTokens: candidates + thoughts,
    reasoningTokens: thoughts,
    outputModalities: outputByModality(candidates, usageMetadata.candidatesTokensDetails, produced),
    source: 'upstream',
  };
  const inputModalities = byModality(usageMetadata.promptTokensDetails, usageMetadata.toolUsePromptTokensDetails);
  if (inputModalities !== undefined) usage.inputModalities = inputModalities;
  if (produced !== undefined && produced.images > 0) usage.images = produced.images;
  return usage;
}
