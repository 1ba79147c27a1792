import type { ScriptedBehaviour } from '../../../core/testing/index.js';

/**
 * How the fake Veo upstream answers the next API request (a submit, a poll or a download
 * hop) instead of its default. The storage host the downloads redirect to never takes one.
 */
export interface VeoBehaviour extends ScriptedBehaviour {
  /** Answer 200 with a body that is not JSON. */
  garbage?: boolean;
  /** On a download: answer 302 to this address instead of the storage host's signed one (any URL, e.g. one the gateway must refuse). */
  redirectTo?: string;
}

/** How one submitted task goes. Queue it with `nextTask` before the submission. */
export interface VeoTaskScript {
  /**
   * Polls answered before the task is done. The first answers `{name}` without a `done` key,
   * the next ones `done: false` (upstreams.md §1.11 has both). Default 2.
   */
  pendingPolls?: number;
  /**
   * How it ends: videos (`succeeded`), an operation `error` (`failed`), every video removed
   * by the safety filters (`filtered`), or the upstream forgetting it, so the poll that would
   * have finished it and every later one answer 404 NOT_FOUND (`vanished`). Default `succeeded`.
   */
  outcome?: 'succeeded' | 'failed' | 'filtered' | 'vanished';
  /** `failed`: the google.rpc code of the operation's error. Default 3 (INVALID_ARGUMENT), as in the fixture. */
  errorCode?: number;
  /** `failed`: its message. */
  errorMessage?: string;
  /**
   * How many of the requested videos the filters removed: all of them for `filtered`
   * (the default there), some of them on a `succeeded` task. Default 0 for `succeeded`.
   */
  filteredCount?: number;
  /** The reasons listed in `raiMediaFilteredReasons`. */
  filteredReasons?: string[];
  /** `succeeded`: the `video.uri` of every video instead of the fake's own download address (any URL, e.g. one the gateway must refuse). */
  videoUri?: string;
}
