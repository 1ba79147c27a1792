import type { ScriptedBehaviour } from '../../../core/testing/index.js';

/** Which moderation refusal to answer: DataInspectionFailed on the input or the output, or IPInfringementSuspect. */
export type DashScopeBlock = 'input' | 'output' | 'ip';

/** The two answer shapes of the sync image path (upstreams.md §4.3, fixture dashscope-qwen-image-responses.json). */
export type DashScopeImageVariant = 'legacy' | 'current';

/**
 * How the fake DashScope upstream answers the next API request instead of its default.
 * Result-image downloads (GETs of the URLs the fake hands out) never take a behaviour.
 * Fields combine with the common ones of {@link ScriptedBehaviour} (for example
 * `stallBeforeHeadersMs` with `blocked`). On a video submit, `blocked` refuses the input at
 * once and {@link DashScopeVideoTaskBehaviour} shapes the task's lifecycle.
 */
export interface DashScopeBehaviour extends ScriptedBehaviour, DashScopeVideoTaskBehaviour {
  /** Refuse a valid request as moderation does: HTTP 400 with `DataInspectionFailed` (`true` = on the input) or `IPInfringementSuspect`. */
  blocked?: true | DashScopeBlock;
  /** Answer with this many images instead of `parameters.n` (0 = `choices: []`); the rest count as FAILED in `task_metric`. */
  images?: number;
  /** The answer shape; by default `current` for qwen-image-2.x/3.x and wan2.6+ image models, `legacy` for the others. */
  variant?: DashScopeImageVariant;
  /** Report this `usage` object instead of the fake's own (for a video submit: in the task's SUCCEEDED answer). */
  usage?: Record<string, unknown>;
  /** Send this as the 200 answer (an object as compact JSON, a string as is). */
  json?: unknown;
  /** Serve this answer's images with this Content-Type instead of `image/png`. */
  imageContentType?: string;
  /** Serve these bytes as this answer's images instead of the sample PNG. */
  imageBytes?: Uint8Array;
}

/** The states of a DashScope task (upstreams.md §4.1: the SDK's `TaskStatus`). */
export type DashScopeTaskStatus = 'PENDING' | 'RUNNING' | 'SUSPENDED' | 'SUCCEEDED' | 'FAILED' | 'CANCELED' | 'UNKNOWN';

/** The code and message a FAILED task reports in its `output`. */
export interface DashScopeTaskFailure {
  code: string;
  message: string;
}

/**
 * What a behaviour does to the video task lifecycle (upstreams.md §4.1–§4.2). On a video
 * submit, `taskSteps`, `taskEnd`, `taskFailure` and `usage` shape the task it creates; on a
 * `GET /api/v1/tasks/{id}`, the common fields (`error`, `status`, `json`, a stall...) replace
 * that one answer and the task does not move on.
 */
export interface DashScopeVideoTaskBehaviour {
  /** The states the new task answers, one per poll, the last one for good. Default PENDING, RUNNING, SUCCEEDED. Reaching UNKNOWN makes the fake forget the task. */
  taskSteps?: DashScopeTaskStatus[];
  /** Shorthand for `taskSteps: ['PENDING', 'RUNNING', taskEnd]`. */
  taskEnd?: 'SUCCEEDED' | 'FAILED' | 'CANCELED' | 'UNKNOWN';
  /** The code and message of a FAILED end; default `InternalError`. `moderationFailure` is DashScope's refusal of the output. */
  taskFailure?: DashScopeTaskFailure;
}
