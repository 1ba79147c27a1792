import { z } from 'zod';
import { emptyUpstreamAnswer, emptyUsage, promptBlocked, tokenCount, toImagesUsage, type GatewayError, type Usage } from '../../core/index.js';
import { createStatusErrorMapper, errorForUpstreamStatus, parseUpstreamAnswer } from '../../core/kit/index.js';
import {
  arkErrorDetailSchema,
  arkErrorDialect,
  arkErrorStatus,
  describeArkError,
  isArkSensitiveContent,
  type ArkErrorDetail,
} from '../shared/ark/ark-api-errors.js';

/** 400 `prompt_blocked`: the upstream's safety filter refused the prompt, a reference image, or every image it made. Not retried. */
export function dsrPromptBlocked(error: ArkErrorDetail): GatewayError {
  const detail = describeArkError(error) ?? 'the content was flagged';
  return promptBlocked(`the upstream's safety filter blocked the request: ${detail}; change the prompt or the reference images`);
}

/**
 * The gateway error for a non-2xx answer: a safety-filter code is `prompt_blocked`; any other
 * becomes the gateway error for its status, with Ark's message.
 */
export const dsrStatusError = createStatusErrorMapper({
  ...arkErrorDialect,
  errorOf: (body) => (isArkSensitiveContent(body.error.code) ? dsrPromptBlocked(body.error) : undefined),
});

/**
 * One `data[]` item: `url` or `b64_json` plus `size`, or an `error` (Ark's error object) for an
 * image of a group that failed. Lenient, like every schema here: only what the gateway reads is
 * checked; every other field travels untouched (upstreams.md §3.2; fixture ark-seedream-image-responses.json).
 */
const dsrImageItemSchema = z.looseObject({
  url: z.string().nullish(),
  b64_json: z.string().nullish(),
  size: z.string().nullish(),
  error: arkErrorDetailSchema.nullish(),
});

/** A non-stream `POST /images/generations` answer; its `usage` has no input count (upstreams.md §3.2). */
const dsrImagesResponseSchema = z.looseObject({
  model: z.string().nullish(),
  created: z.number().nullish(),
  data: z.array(dsrImageItemSchema).nullish(),
  usage: z.looseObject({ generated_images: z.number().nullish(), output_tokens: z.number().nullish(), total_tokens: z.number().nullish() }).nullish(),
  error: arkErrorDetailSchema.nullish(),
});

const hasImage = (item: z.output<typeof dsrImageItemSchema>): boolean =>
  (typeof item.url === 'string' && item.url !== '') || (typeof item.b64_json === 'string' && item.b64_json !== '');

/**
 * Turns an upstream images answer (upstreams.md §3.2; fixture ark-seedream-image-responses.json)
 * into the client's answer, `{model, created, data, usage}` with `model` as the client named it
 * and `now` (Unix seconds) for a missing `created`. `data[]` items go out as the upstream sent
 * them, in order, including the `{error}` item of an image of a group that failed, so the client
 * sees which one is missing; `usage`, when Ark reports one, in the images usage shape
 * (`toImagesUsage`). Billing counts the items that carry a `url` or `b64_json`: the images the
 * client actually got; Ark reports output tokens only. No such item: every failure
 * a safety-filter code is `prompt_blocked`, anything else (an empty `data`) is `empty_response`.
 */
export function fromDsrResponse(json: unknown, context: { model: string; now: number }): { body: Record<string, unknown>; usage: Usage } {
  const answer = parseUpstreamAnswer(json, dsrImagesResponseSchema, 'an images response');
  if (answer.error !== undefined && answer.error !== null) {
    if (isArkSensitiveContent(answer.error.code)) throw dsrPromptBlocked(answer.error);
    throw errorForUpstreamStatus(arkErrorStatus(answer.error), describeArkError(answer.error) ?? 'the upstream reported an error');
  }
  const items = answer.data ?? [];
  const delivered = items.filter(hasImage).length;
  if (delivered === 0) {
    const failures = items.flatMap((item) => (item.error === undefined || item.error === null ? [] : [item.error]));
    const blocked = failures.find((failure) => isArkSensitiveContent(failure.code));
    if (blocked !== undefined) throw dsrPromptBlocked(blocked);
    const detail = describeArkError(failures[0]);
    throw emptyUpstreamAnswer(`the upstream returned no image${detail === undefined ? '' : `: ${detail}`}; retry once or twice`);
  }
  // The raw items, not zod's output: their keys stay in the upstream's order.
  const raw = json as { data: unknown[] };
  const outputTokens = tokenCount(answer.usage?.output_tokens);
  const usage: Usage = { ...emptyUsage('upstream'), outputTokens, outputModalities: { image: outputTokens }, images: delivered };
  const body: Record<string, unknown> = { model: context.model, created: answer.created ?? context.now, data: raw.data };
  // Ark's own usage ({generated_images, output_tokens, total_tokens}) becomes the images usage
  // every family answers with: its tokens are the images' output; it reports no input.
  if (answer.usage !== undefined && answer.usage !== null) body.usage = toImagesUsage(usage);
  return { body, usage };
}
