import { describeArkError, emptyUsage, errorForUpstreamStatus, isArkSensitiveContent, tokenCount, type Usage } from '../../core/index.js';
import { dsrEmptyResponse, dsrPromptBlocked, invalidDsrResponse } from './dsr-error.js';
import { dsrImagesResponseSchema, type DsrImageItem, type DsrUsage } from './dsr-schemas.js';

/** What the client gets for a Seedream-style request, and what it is billed. */
export interface DsrImagesAnswer {
  /** `{model, created, data, usage}`: the upstream's `created`, `data[]` and `usage` as it sent them, `model` as the client named it. */
  body: Record<string, unknown>;
  usage: Usage;
}

/** What the answer needs besides the upstream body. */
export interface DsrAnswerContext {
  /** The model the client asked for. */
  model: string;
  /** Unix seconds, for an answer without `created`. */
  now: number;
}

const hasImage = (item: DsrImageItem): boolean => (typeof item.url === 'string' && item.url !== '') || (typeof item.b64_json === 'string' && item.b64_json !== '');


/** The core usage of an answer that delivered `images` images; Ark reports output tokens only. */
export function convertDsrUsage(usage: DsrUsage | null | undefined, images: number): Usage {
  const outputTokens = tokenCount(usage?.output_tokens);
  return { ...emptyUsage('upstream'), outputTokens, outputModalities: { image: outputTokens }, images };
}

/**
 * Turns an upstream images answer (upstreams.md §3.2; fixture ark-seedream-image-responses.json)
 * into the client's answer. `data[]` items go out as the upstream sent them, in order,
 * including the `{error}` item of an image of a group that failed, so the client sees which
 * one is missing. Billing counts the items that carry a `url` or `b64_json`: the images the
 * client actually got. No such item: every failure a safety-filter code is `prompt_blocked`,
 * anything else (an empty `data`) is `empty_response`.
 */
export function fromDsrResponse(json: unknown, context: DsrAnswerContext): DsrImagesAnswer {
  const parsed = dsrImagesResponseSchema.safeParse(json);
  if (!parsed.success) throw invalidDsrResponse(parsed.error);
  const answer = parsed.data;
  if (answer.error !== undefined && answer.error !== null) {
    if (isArkSensitiveContent(answer.error.code)) throw dsrPromptBlocked(answer.error);
    throw errorForUpstreamStatus(500, describeArkError(answer.error) ?? 'the upstream reported an error');
  }
  const items = answer.data ?? [];
  const delivered = items.filter(hasImage).length;
  if (delivered === 0) {
    const failures = items.flatMap((item) => (item.error === undefined || item.error === null ? [] : [item.error]));
    const blocked = failures.find((failure) => isArkSensitiveContent(failure.code));
    if (blocked !== undefined) throw dsrPromptBlocked(blocked);
    const first = failures[0];
    throw dsrEmptyResponse(first === undefined ? undefined : describeArkError(first));
  }
  // The raw items and usage, not zod's output: their keys stay in the upstream's order.
  const raw = json as { data: unknown[]; usage?: unknown };
  const body: Record<string, unknown> = { model: context.model, created: answer.created ?? context.now, data: raw.data };
  if (answer.usage !== undefined && answer.usage !== null) body.usage = raw.usage;
  return { body, usage: convertDsrUsage(answer.usage, delivered) };
}
