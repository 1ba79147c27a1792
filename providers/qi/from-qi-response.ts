import { emptyUsage, tokenCount, type Usage } from '../../core/index.js';
import { emptyQiResponse, invalidQiResponse, qiInBandError } from './qi-error.js';
import { qiResponseSchema, type QiUsage } from './qi-schemas.js';

/** The token counts the client sees as `usage`, when the upstream reported any. */
export interface QiClientUsage {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
}

/** What a multimodal-generation answer produced. */
export interface QiImageResult {
  /** Every image URL, choice by choice, item by item. */
  urls: string[];
  /** `images` is the number of URLs, the images actually made. */
  usage: Usage;
  clientUsage?: QiClientUsage;
}

const reported = (value: number | null | undefined): boolean => typeof value === 'number' && Number.isFinite(value);

function clientUsageOf(usage: QiUsage | null | undefined): QiClientUsage | undefined {
  if (usage === null || usage === undefined) return undefined;
  if (!reported(usage.input_tokens) && !reported(usage.output_tokens) && !reported(usage.total_tokens)) return undefined;
  const input = tokenCount(usage.input_tokens);
  const output = tokenCount(usage.output_tokens);
  return { input_tokens: input, output_tokens: output, total_tokens: reported(usage.total_tokens) ? tokenCount(usage.total_tokens) : input + output };
}

/**
 * Reads a 200 answer of the sync image path (upstreams.md §4.3, both variants): the image
 * URLs of every choice (one choice per image when n > 1), billed as that many images, with
 * token counts when the newer variant reports them. An error body sent with 200 is that
 * error; an answer without any image is `empty_response`.
 */
export function fromQiResponse(json: unknown): QiImageResult {
  const parsed = qiResponseSchema.safeParse(json);
  if (!parsed.success) throw invalidQiResponse(parsed.error);
  const answer = parsed.data;
  if ((answer.output === null || answer.output === undefined) && (answer.code ?? '') !== '') throw qiInBandError(answer);
  const urls = (answer.output?.choices ?? [])
    .flatMap((choice) => choice.message?.content ?? [])
    .flatMap((item) => (typeof item.image === 'string' && item.image !== '' ? [item.image] : []));
  if (urls.length === 0) throw emptyQiResponse();
  const clientUsage = clientUsageOf(answer.usage);
  const usage: Usage = {
    ...emptyUsage('upstream'),
    inputTokens: clientUsage?.input_tokens ?? 0,
    outputTokens: clientUsage?.output_tokens ?? 0,
    images: urls.length,
  };
  return clientUsage === undefined ? { urls, usage } : { urls, usage, clientUsage };
}
