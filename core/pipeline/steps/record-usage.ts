import { clientFormatOf, UsageType, type NewUsageRecord } from '../../usage/usage-record.js';
import type { PipelineServices } from '../pipeline-services.js';
import type { RequestContext } from '../request-context.js';

/** A model name is short; a longer one is the client's invention, cut for the record. */
const maxRecordedModelCharacters = 200;
/** What no store can keep in text: NUL (PostgreSQL refuses it) and lone surrogates (no UTF-8 spelling). */
const unstorableText = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The request's usage record, handed to the usage log when the request is over, beside its log
 * line (`end` and `status` as the line has them). Built from what the steps already set, as one
 * object literal of one shape; the log writes it later, in a batch, so nothing here waits. With
 * `logs.enabled: false` there is no log and this does nothing. A video task is recorded later,
 * by the task service, when it settles (its submission's part is {@link usageRecordOf} too).
 */
export function recordUsage(context: RequestContext, services: PipelineServices, end?: string, status?: number): void {
  const log = services.usage;
  if (log !== undefined) log.record(usageRecordOf(context, log.nowSeconds(), end, status));
}

/** The record of the request as it stands now; see {@link recordUsage}. */
export function usageRecordOf(context: RequestContext, createdAt: number, end?: string, status?: number): NewUsageRecord {
  const { invocation, usage, failure, served, token, attempts } = context;
  const { startedAt, firstByteAt } = context.timings;
  const now = Date.now();
  const endReason = end ?? failure?.code ?? 'completed';
  return {
    created_at: createdAt,
    type: failure === undefined ? UsageType.consume : UsageType.error,
    user_id: token.user_id,
    token_id: token.id,
    token_name: token.name,
    model_name: recordedModel(context.requestedModel),
    upstream_model: served === undefined ? '' : served.channel.upstreamModel(context.model),
    operation: context.operation,
    client_format: clientFormatOf(context.operation),
    group: served?.group ?? attempts.at(-1)?.group ?? token.group,
    is_stream: invocation.stream,
    prompt_tokens: usage?.inputTokens ?? 0,
    completion_tokens: usage?.outputTokens ?? 0,
    cached_tokens: usage?.cachedInputTokens ?? 0,
    reasoning_tokens: usage?.reasoningTokens ?? 0,
    quota: context.units ?? 0,
    usage_source: usage?.source ?? 'estimated',
    status: failure?.statusCode ?? status ?? 200,
    error_code: failure?.code ?? (endReason === 'completed' || endReason === 'client_gone' || endReason === 'accepted' ? '' : endReason),
    end_reason: endReason,
    budget_overrun: overrunOf(context),
    use_time_ms: now - startedAt,
    first_byte_ms: (firstByteAt ?? now) - startedAt,
    request_id: invocation.requestId,
    task_id: '',
    channel: attempts.at(-1)?.channel ?? '',
    attempts,
  };
}

/** The soft budgets the request was served past, `scope:period` joined by commas; empty for none (nearly every request). */
function overrunOf(context: RequestContext): string {
  const over = context.reservation?.overBudget;
  return over === undefined || over.length === 0 ? '' : over.map((budget) => `${budget.scope}:${budget.period}`).join(',');
}

/** The client's model name as a store can keep it: at most 200 characters, nothing a store refuses. */
function recordedModel(model: string): string {
  const kept = model.length > maxRecordedModelCharacters ? model.slice(0, maxRecordedModelCharacters) : model;
  return unstorableText.test(kept) ? kept.replace(new RegExp(unstorableText, 'g'), '\uFFFD') : kept;
}
