import { z } from 'zod';
import { emptyUpstreamAnswer, emptyUsage, GatewayError, promptBlocked, tokenCount, toImagesUsage, type Usage } from '../../core/index.js';
import { parseUpstreamAnswer } from '../../core/kit/index.js';
import {
  dashScopeCodeStatus,
  dashScopeError,
  dashScopeStatusError,
  describeDashScopeError,
  isDashScopeModerationCode,
  readDashScopeErrorBody,
  type DashScopeErrorBody,
} from '../shared/dashscope/dashscope-api-errors.js';

// Lenient on purpose: only what the gateway reads is checked. Two response variants exist
// (fixture dashscope-qwen-image-responses.json): the older one reports `usage.width/height`
// and `output.task_metric`, the newer one `usage.size` and token counts, and content items
// that carry `type: "image"`. Both have `output.choices[].message.content[].image`.

const count = z.number().nullish();

/** The `usage` of a multimodal-generation answer, either variant. */
const qiUsageSchema = z.looseObject({ image_count: count, input_tokens: count, output_tokens: count, total_tokens: count });

const contentItemSchema = z.looseObject({ image: z.unknown().optional(), type: z.unknown().optional() });

/** A sync `/services/aigc/multimodal-generation/generation` answer (upstreams.md §4.3), or an error body sent with 200. */
const qiResponseSchema = z.looseObject({
  output: z
    .looseObject({
      choices: z
        .array(
          z.looseObject({
            finish_reason: z.string().nullish(),
            message: z.looseObject({ content: z.array(contentItemSchema).nullish() }).nullish(),
          }),
        )
        .nullish(),
    })
    .nullish(),
  usage: qiUsageSchema.nullish(),
  request_id: z.string().nullish(),
  code: z.string().nullish(),
  message: z.string().nullish(),
});

/** What a qi answer is expected to be, for `invalidUpstreamAnswer` and `readUpstreamAnswer`. */
export const qiResponseExpected = 'an image generation result';

/** 400 `prompt_blocked`: not retryable, another channel would refuse it too. */
function qiPromptBlocked(error: DashScopeErrorBody): GatewayError {
  return promptBlocked(`the upstream's safety filter blocked the request: ${describeDashScopeError(error) ?? 'no reason given'}; change the prompt or the image`);
}

/**
 * The gateway error for an upstream's non-2xx answer: a moderation code is `prompt_blocked`,
 * anything else is judged like `dashScopeStatusError` does (429, 5xx, 401, 403 retryable on
 * another channel; a model it lacks tried on another channel without counting against this
 * one; other 4xx the client's), with DashScope's own message and `Retry-After` passed on.
 */
export function qiStatusError(status: number, bodyText: string, retryAfterSeconds?: number): GatewayError {
  const error = readDashScopeErrorBody(bodyText);
  return error !== undefined && isDashScopeModerationCode(error.code) ? qiPromptBlocked(error) : dashScopeStatusError(status, bodyText, retryAfterSeconds);
}

const reported = (value: number | null | undefined): boolean => typeof value === 'number' && Number.isFinite(value);

/** Whether the upstream reported token counts (the newer answer variant), which the client then sees as `usage`. */
const reportsTokens = (usage: z.output<typeof qiUsageSchema> | null | undefined): boolean =>
  usage !== null && usage !== undefined && (reported(usage.input_tokens) || reported(usage.output_tokens) || reported(usage.total_tokens));

/**
 * Reads a 200 answer of the sync image path (upstreams.md §4.3, both variants): the image
 * URLs of every choice (one choice per image when n > 1), choice by choice, item by item,
 * billed as that many images, with the token counts the client sees when the newer variant
 * reports them. An error body sent with 200 is that error, judged by its code; an answer
 * without any image is a 502 `empty_response` (another channel, or a retry, may do better).
 */
export function fromQiResponse(json: unknown) {
  const answer = parseUpstreamAnswer(json, qiResponseSchema, qiResponseExpected);
  if ((answer.output === null || answer.output === undefined) && (answer.code ?? '') !== '') {
    if (isDashScopeModerationCode(answer.code)) throw qiPromptBlocked(answer);
    throw dashScopeError(dashScopeCodeStatus(answer.code ?? ''), answer);
  }
  const urls = (answer.output?.choices ?? [])
    .flatMap((choice) => choice.message?.content ?? [])
    .flatMap((item) => (typeof item.image === 'string' && item.image !== '' ? [item.image] : []));
  if (urls.length === 0) throw emptyUpstreamAnswer('the upstream returned no image; retry once or twice');
  const usage: Usage = {
    ...emptyUsage('upstream'),
    inputTokens: tokenCount(answer.usage?.input_tokens),
    outputTokens: tokenCount(answer.usage?.output_tokens),
    images: urls.length,
  };
  // The images usage every family answers with; DashScope splits its tokens by no modality.
  return reportsTokens(answer.usage) ? { urls, usage, clientUsage: toImagesUsage(usage) } : { urls, usage };
}
