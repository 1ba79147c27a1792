import type { QuotaHold } from '../billing/quota-ledger.js';
import type { TaskStatus } from '../contracts/provider/operation-results.js';
import { scrubSecrets } from '../security/secret-values.js';
import type { NewUsageRecord } from '../usage/usage-record.js';

/** A video task as the store keeps it. */
export interface TaskRecord {
  /** `video_` and random characters. */
  id: string;
  token_id: number;
  user_id: number;
  model: string;
  /** The channel that accepted it; every later question goes there. */
  channel: string;
  /** The billing group it was reserved under. */
  group: string;
  /** The provider's opaque handle of the upstream task. */
  handle: string;
  status: TaskStatus;
  progress?: number;
  url?: string;
  error?: { code: number; message: string; type?: string };
  /** The quota held since the submission. */
  hold: QuotaHold;
  /** What a success costs, from the submission's usage; the upstream's final usage may replace it. */
  units_if_succeeded: number;
  /** Units charged once settled (0 for a refund). */
  charged_units?: number;
  settled: boolean;
  succeeded_status?: string;
  details?: Record<string, string | number | boolean>;
  /** The client's prompt, when it gave one. */
  prompt?: string;
  /** The gateway id of the task this one remixes. */
  remixed_from?: string;
  /** The submission's usage record (absent with the usage log off), written with the settlement's figures when the task settles. */
  usage_log?: NewUsageRecord;
  /** Unix seconds. */
  created_at: number;
  /** Unix seconds. */
  updated_at: number;
  /** Milliseconds since the epoch of the last question to the upstream. */
  polled_at: number;
  /** Milliseconds since the epoch after which the task is gone for its owner. */
  expires_at: number;
}

export const isTerminal = (status: TaskStatus): boolean => status === 'succeeded' || status === 'failed';

/** A task as the client sees it (spec part 2, Video task). */
export function taskView(record: TaskRecord): Record<string, unknown> {
  return {
    ...record.details,
    task_id: record.id,
    status: record.status === 'succeeded' ? (record.succeeded_status ?? 'succeeded') : record.status,
    format: 'mp4',
    model: record.model,
    created_at: record.created_at,
    updated_at: record.updated_at,
    ...(record.progress === undefined ? {} : { progress: record.progress }),
    ...(record.url === undefined ? {} : { url: record.url }),
    ...(record.error === undefined ? {} : { error: shownTaskError(record.error) }),
  };
}

/**
 * A task's failure as a client reads it. Stored failures are scrubbed already; a record
 * stored before a key was configured is scrubbed again here.
 */
export function shownTaskError(error: NonNullable<TaskRecord['error']>): NonNullable<TaskRecord['error']> {
  return { ...error, message: scrubSecrets(error.message), ...(error.type === undefined ? {} : { type: scrubSecrets(error.type) }) };
}
