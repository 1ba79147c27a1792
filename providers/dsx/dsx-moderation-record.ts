import { isArkSensitiveContent } from '../../core/index.js';
import type { DsxTask } from './dsx-schemas.js';

/** The moderation record of a task (`GET /v1/video/generations/moderation-result/{task_id}`). */
export interface DsxModerationRecord {
  /** `pending` while the task runs, `passed` when it succeeded, `blocked` when the safety filter stopped it, `not_flagged` when it ended otherwise. */
  result: 'pending' | 'passed' | 'blocked' | 'not_flagged';
  /** True exactly when `result` is `blocked`. */
  flagged: boolean;
  /** The upstream task's own status. */
  task_status: string;
  /** What was flagged, read from the code: `input_text`, `input_image`, `output_video`... */
  target?: string;
  /** Ark's code and message for a task that failed. */
  code?: string;
  message?: string;
}

const targetPattern = /^(Input|Output)(Text|Image|Video|Audio)SensitiveContentDetected/;

/**
 * Builds the moderation record from the task itself: upstreams.md has no moderation
 * endpoint for Seedance (§3.3–§3.5), and Ark reports a safety-filter stop as a failed task
 * whose `error.code` is a `...SensitiveContentDetected` code (§3.1, §3.3).
 */
export function dsxModerationRecord(task: DsxTask): DsxModerationRecord {
  const status = task.status;
  if (status === 'succeeded') return { result: 'passed', flagged: false, task_status: status };
  if (status !== 'failed' && status !== 'cancelled' && status !== 'expired') return { result: 'pending', flagged: false, task_status: status };
  const code = task.error?.code ?? undefined;
  const message = task.error?.message ?? undefined;
  const detail = { ...(code === undefined ? {} : { code }), ...(message === undefined ? {} : { message }) };
  if (!isArkSensitiveContent(code)) return { result: 'not_flagged', flagged: false, task_status: status, ...detail };
  const target = targetPattern.exec(code ?? '');
  return {
    result: 'blocked',
    flagged: true,
    task_status: status,
    ...(target === null ? {} : { target: `${target[1]!.toLowerCase()}_${target[2]!.toLowerCase()}` }),
    ...detail,
  };
}
