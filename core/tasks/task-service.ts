import type { QuotaLedger } from '../billing/quota-ledger.js';
import type { GatewayConfig } from '../config/config-schema.js';
import type { OperationName } from '../contracts/provider/operation-call.js';
import type { OperationResults } from '../contracts/operation-results.js';
import type { TaskProgress } from '../contracts/provider/operation-results.js';
import type { ProviderLogger } from '../contracts/provider/provider-host.js';
import type { VideoTaskQuery } from '../contracts/video-requests.js';
import { notFound } from '../errors/error-codes.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { OperationInvocation } from '../pipeline/operation-invocation.js';
import type { CallChannel } from '../pipeline/channel-call.js';
import type { ModelRequestPipeline } from '../pipeline/model-request-pipeline.js';
import { unitsOfModel } from '../pipeline/steps/price-request.js';
import { randomAlphanumeric } from '../security/random-string.js';
import { scrubSecrets } from '../security/secret-values.js';
import type { StoreBackend } from '../store/store-backend.js';
import type { TokenView } from '../tokens/token-record.js';
import { isTerminal, shownTaskError, type TaskRecord } from './task-record.js';
import type { TaskRepository } from './task-repository.js';
import { clipped, quoted } from '../errors/client-text.js';
import type { UsageLog } from '../usage/usage-log.js';
import { clientFormatOf, UsageType, type NewUsageRecord } from '../usage/usage-record.js';

/** How long one question to the upstream about a task may take. */
const statusTimeoutMilliseconds = 30_000;
/** Settlement claims outlive every task, so a task is never settled twice. */
const settlementClaimMilliseconds = 7 * 24 * 3_600_000;

/** Upstream answers that mean the task no longer exists there: it will never finish. */
const vanishedStatuses = new Set([404, 410]);

/**
 * Owns video tasks from submission to settlement. A submission runs the steps of every model
 * request (auth already done: model limits, routing with failover, the reservation), which
 * end by detaching the quota hold; it is acknowledged only once its record is stored with
 * that hold. Asking about a task goes to the
 * channel that accepted it, at most once per `tasks.min_poll_interval_ms` across every
 * process sharing the store; the background poller asks about tasks nobody polls. A task
 * settles exactly once, on a state the upstream reported: charged on success, refunded on
 * failure or when the upstream has lost it. Past `tasks.ttl_ms` the upstream is still asked
 * once more; only a task it reports neither finished nor lost is refunded as expired.
 */
export class TaskService {
  constructor(
    private readonly pipeline: ModelRequestPipeline,
    private readonly callChannel: CallChannel,
    private readonly tasks: TaskRepository,
    private readonly backend: StoreBackend,
    private readonly ledger: QuotaLedger,
    private readonly config: GatewayConfig,
    private readonly now: () => number,
    private readonly logger: ProviderLogger,
    /** Where a settled task's usage record goes, under the config in force; undefined with `logs.enabled: false`. */
    private readonly usageLog: () => UsageLog | undefined = () => undefined,
  ) {}

  /** Submits a task and stores its record; the record is the answer. `remixedFrom` is the gateway id of the task it remixes. */
  async submit(invocation: OperationInvocation, remixedFrom?: string): Promise<TaskRecord> {
    const request = invocation.request as { prompt?: unknown };
    const outcome = await this.pipeline.run(invocation);
    if (outcome.kind !== 'task') throw new GatewayError(500, 'internal_error', `the provider answered ${invocation.operation} without a task`);
    const now = this.now();
    const seconds = Math.floor(now / 1000);
    const record: TaskRecord = {
      id: `video_${randomAlphanumeric(24)}`,
      token_id: invocation.token.id,
      user_id: invocation.token.user_id,
      model: invocation.model,
      channel: outcome.channel,
      group: outcome.group,
      handle: outcome.accepted.handle,
      status: 'queued',
      hold: outcome.hold,
      units_if_succeeded: outcome.unitsIfSucceeded,
      settled: false,
      succeeded_status: outcome.accepted.succeededStatus,
      details: outcome.accepted.details,
      prompt: typeof request.prompt === 'string' ? request.prompt : undefined,
      remixed_from: remixedFrom,
      usage_log: outcome.usage,
      created_at: seconds,
      updated_at: seconds,
      polled_at: now,
      expires_at: now + this.config.tasks.ttl_ms,
    };
    try {
      await this.tasks.save(record, now);
    } catch (error) {
      // Not acknowledged, so not charged. The upstream task runs on unbilled; it is logged.
      await this.ledger.settleHold(record.hold, 0).catch(() => {});
      this.logger.error({ err: error, channel: record.channel, handle: record.handle }, 'could not store an accepted video task; its hold was refunded');
      if (outcome.usage !== undefined) {
        const failure = GatewayError.is(error) ? error : new GatewayError(500, 'internal_error', 'the gateway failed');
        this.usageLog()?.record({ ...outcome.usage, created_at: seconds, type: UsageType.error, quota: 0, status: failure.statusCode, error_code: failure.code, end_reason: failure.code });
      }
      throw error;
    }
    return record;
  }

  /**
   * The caller's task, brought up to date; 404 for an unknown or another token's task. A task
   * past its expiry answers with its final state (settled on the upstream's last answer) for
   * as long as the store keeps its record, an hour more; then it is unknown.
   */
  async find(token: TokenView, id: string, requestId: string): Promise<TaskRecord> {
    const record = await this.tasks.get(id);
    if (record === undefined || record.token_id !== token.id) {
      throw notFound(`no video task ${quoted(id)} for this API key; tasks expire about ${Math.round(this.config.tasks.ttl_ms / 3_600_000)} hours after submission`, 'task_not_found');
    }
    return this.refresh(record, requestId);
  }

  /** Asks the channel that accepted a finished task for something else about it (its video, its moderation record). */
  async ask<Name extends OperationName>(record: TaskRecord, operation: Name, requestId: string, signal: AbortSignal): Promise<OperationResults[Name]> {
    const query: VideoTaskQuery = { handle: record.handle, model: record.model };
    const result = await this.callChannel({ channel: record.channel, operation, request: query, model: record.model, signal, requestId });
    if (result === undefined) {
      throw new GatewayError(404, 'operation_unsupported', `model "${record.model}" offers no ${operation} on the channel that ran this task`);
    }
    return result;
  }

  /**
   * Brings an open task up to date: at most one question to the upstream per minimum poll
   * interval, shared by every process on the store; a terminal answer settles the task.
   */
  async refresh(record: TaskRecord, requestId: string): Promise<TaskRecord> {
    const now = this.now();
    if (record.settled || now - record.polled_at < this.config.tasks.min_poll_interval_ms) return record;
    if (this.config.tasks.min_poll_interval_ms > 0) {
      // One question per interval across every process on the store: the first to count it asks.
      const turn = await this.backend.hitWindow(`task-poll:${record.id}`, this.config.tasks.min_poll_interval_ms);
      if (turn.count > 1) return record;
    }
    let progress: TaskProgress;
    try {
      progress = await this.#askStatus(record, requestId);
    } catch (error) {
      if (GatewayError.is(error) && vanishedStatuses.has(error.statusCode) && error.code !== 'operation_unsupported') {
        return this.#finish(record, { kind: 'task-progress', status: 'failed', error: { code: 404, message: `the upstream no longer knows this task: ${error.message}`, type: 'task_vanished' } });
      }
      if (now >= record.expires_at) return this.#expire(record, error);
      // A passing upstream failure: the task stays as it was and is asked about again later.
      // Anything but a GatewayError is the gateway's own bug, logged as one, with its stack.
      if (GatewayError.is(error)) this.logger.warn({ err: error, task: record.id, channel: record.channel }, 'could not ask the upstream about a video task');
      else this.logger.error({ err: error, task: record.id, channel: record.channel }, 'the gateway failed while asking about a video task');
      const updated = { ...record, polled_at: now };
      await this.tasks.save(updated, now);
      return updated;
    }
    if (isTerminal(progress.status)) return this.#finish(record, progress);
    return now >= record.expires_at ? this.#expire(record, undefined) : this.#update(record, progress);
  }

  /**
   * A task past `tasks.ttl_ms` that the upstream, asked one last time, reports neither
   * finished nor lost: it is failed as expired and its hold refunded, as the client will never
   * get a video. The outcome at the vendor is unverified, so it is logged with the channel
   * and the upstream's handle, to reconcile against the vendor's bill. (Asking first means a
   * task that did finish while nobody could poll it is charged for its video, not refunded.)
   */
  async #expire(record: TaskRecord, cause: unknown): Promise<TaskRecord> {
    this.logger.warn(
      { err: cause, task: record.id, channel: record.channel, handle: record.handle },
      'a video task expired without a verified outcome; its hold is refunded (reconcile with the vendor)',
    );
    return this.#finish(record, { kind: 'task-progress', status: 'failed', error: { code: 504, message: 'the task did not finish before it expired', type: 'expired' } });
  }

  async #askStatus(record: TaskRecord, requestId: string): Promise<TaskProgress> {
    const signal = AbortSignal.timeout(statusTimeoutMilliseconds);
    return this.ask(record, 'video.status', requestId, signal).catch((error: unknown) => {
      // The channel is gone from the config: nobody can finish this task.
      if (GatewayError.is(error) && error.code === 'operation_unsupported') throw new GatewayError(410, 'channel_removed', error.message);
      throw error;
    });
  }

  async #update(record: TaskRecord, progress: TaskProgress): Promise<TaskRecord> {
    const now = this.now();
    const updated: TaskRecord = {
      ...record,
      status: progress.status,
      progress: progress.progress ?? record.progress,
      details: withDetails(record, progress),
      updated_at: Math.floor(now / 1000),
      polled_at: now,
    };
    await this.tasks.save(updated, now);
    return updated;
  }

  /** Records a terminal state and settles the hold once: the success's cost, or nothing for a failure. */
  async #finish(record: TaskRecord, progress: TaskProgress): Promise<TaskRecord> {
    const now = this.now();
    const succeeded = progress.status === 'succeeded';
    const units = succeeded
      ? progress.usage === undefined
        ? record.units_if_succeeded
        : unitsOfModel(this.pipeline.config, record.model, progress.usage, record.group)
      : 0;
    const claim = await this.backend.hitWindow(`task-settled:${record.id}`, settlementClaimMilliseconds);
    if (claim.count === 1) {
      await this.ledger.settleHold(record.hold, units);
      this.#recordSettlement(record, progress, units, now);
    }
    const finished: TaskRecord = {
      ...record,
      status: progress.status,
      progress: succeeded ? 100 : record.progress,
      url: progress.url ?? record.url,
      // Stored as the client will read it: an upstream that echoes the channel key must not have it kept or shown.
      error: progress.error === undefined ? undefined : shownTaskError(progress.error),
      details: withDetails(record, progress),
      settled: true,
      charged_units: claim.count === 1 ? units : record.charged_units,
      updated_at: Math.floor(now / 1000),
      polled_at: now,
    };
    await this.tasks.save(finished, now);
    this.logger.info({ task: record.id, status: finished.status, chargedUnits: units }, 'video task settled');
    return finished;
  }

  /**
   * The task's usage record, once settled: its submission's (or, for a task submitted without
   * one, what the task record knows) with the settlement's time, charge and usage, typed a
   * consumption on success and a refund otherwise, ending with the failure's type.
   */
  #recordSettlement(record: TaskRecord, progress: TaskProgress, units: number, now: number): void {
    const log = this.usageLog();
    if (log === undefined) return;
    const submitted = record.usage_log ?? submissionOf(record);
    const succeeded = progress.status === 'succeeded';
    const failure = succeeded ? '' : clipped(progress.error === undefined ? 'task_failed' : (shownTaskError(progress.error).type ?? 'task_failed'));
    const usage = progress.usage;
    log.record({
      ...submitted,
      created_at: Math.floor(now / 1000),
      type: succeeded ? UsageType.consume : UsageType.refund,
      prompt_tokens: usage?.inputTokens ?? submitted.prompt_tokens,
      completion_tokens: usage?.outputTokens ?? submitted.completion_tokens,
      cached_tokens: usage?.cachedInputTokens ?? submitted.cached_tokens,
      reasoning_tokens: usage?.reasoningTokens ?? submitted.reasoning_tokens,
      usage_source: usage?.source ?? submitted.usage_source,
      quota: units,
      error_code: failure,
      end_reason: succeeded ? 'completed' : failure,
      use_time_ms: Math.max(0, now - record.created_at * 1000),
      task_id: record.id,
    });
  }

  /** Asks about every open task the clients are not polling; called by the background poller. */
  async refreshOpenTasks(): Promise<void> {
    for (const id of await this.tasks.openIds()) {
      const record = await this.tasks.get(id);
      if (record === undefined) {
        await this.tasks.forget(id);
        continue;
      }
      await this.refresh(record, `poller-${id}`).catch((error: unknown) => this.logger.warn({ err: error, task: id }, 'the background poll of a video task failed'));
    }
  }
}

/** A submission's usage record for a task stored without one (by a gateway whose usage log was off): what its task record knows. */
function submissionOf(record: TaskRecord): NewUsageRecord {
  return {
    created_at: record.created_at,
    type: UsageType.consume,
    user_id: record.user_id,
    token_id: record.token_id,
    token_name: '',
    model_name: record.model,
    upstream_model: '',
    operation: 'video.submit',
    client_format: clientFormatOf('video.submit'),
    group: record.group,
    is_stream: false,
    prompt_tokens: 0,
    completion_tokens: 0,
    cached_tokens: 0,
    reasoning_tokens: 0,
    quota: record.units_if_succeeded,
    usage_source: 'estimated',
    status: 200,
    error_code: '',
    end_reason: 'accepted',
    budget_overrun: '',
    use_time_ms: 0,
    first_byte_ms: 0,
    request_id: '',
    task_id: record.id,
    channel: record.channel,
    attempts: [],
  };
}

/** The task's details with what the latest progress report adds; the upstream's text is scrubbed of the operator's secrets. */
function withDetails(record: TaskRecord, progress: TaskProgress): TaskRecord['details'] {
  if (progress.details === undefined) return record.details;
  const added = Object.fromEntries(Object.entries(progress.details).map(([name, value]) => [name, typeof value === 'string' ? scrubSecrets(value) : value]));
  return { ...record.details, ...added };
}
