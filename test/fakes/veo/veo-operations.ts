import { randomBytes } from 'node:crypto';
import type { VeoTaskScript } from './veo-behaviour.js';

/** The `@type` of a finished generation (upstreams.md §1.11, fixture gemini-veo-operation.json). */
export const predictLongRunningResponseType = 'type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningResponse';

const defaultFilteredReason = 'The fake upstream filtered this video: its safety check was told to.';

interface VeoTask {
  name: string;
  script: VeoTaskScript;
  sampleCount: number;
  polls: number;
  /** File ids of the videos, made once the task is done. */
  files: string[];
}

/** What a poll answers: an operation body, or 404 for a task the upstream does not know. */
export type VeoPollAnswer = { status: 200; body: Record<string, unknown> } | { status: 404 };

const newId = () => randomBytes(9).toString('base64url').toLowerCase().replace(/[^a-z0-9]/g, 'x');

/**
 * The fake's long-running operations. Each poll moves a task one step along its script:
 * pending polls, then its outcome, which later polls repeat (a vanished task stays gone).
 * Videos are kept by file id for the download route.
 */
export class VeoOperations {
  readonly #tasks = new Map<string, VeoTask>();
  readonly #files = new Map<string, string>();

  /** Starts a task for `model` and answers its operation name. */
  submit(model: string, sampleCount: number, script: VeoTaskScript): string {
    const name = `models/${model}/operations/${newId()}`;
    this.#tasks.set(name, { name, script, sampleCount, polls: 0, files: [] });
    return name;
  }

  /** One poll; `origin` is where the download addresses point. */
  poll(name: string, origin: string): VeoPollAnswer {
    const task = this.#tasks.get(name);
    if (task === undefined) return { status: 404 };
    const pending = task.script.pendingPolls ?? 2;
    task.polls += 1;
    if (task.polls <= pending) return { status: 200, body: task.polls === 1 ? { name } : { name, done: false } };
    const outcome = task.script.outcome ?? 'succeeded';
    if (outcome === 'vanished') {
      this.#tasks.delete(name);
      return { status: 404 };
    }
    if (outcome === 'failed') return { status: 200, body: { name, done: true, error: { code: task.script.errorCode ?? 3, message: task.script.errorMessage ?? 'The video could not be generated.' } } };
    return { status: 200, body: this.#finished(task, outcome, origin) };
  }

  /** The task a file belongs to, if the fake made that file. */
  fileTask(fileId: string): string | undefined {
    return this.#files.get(fileId);
  }

  #finished(task: VeoTask, outcome: 'succeeded' | 'filtered', origin: string): Record<string, unknown> {
    const filtered = Math.min(task.sampleCount, task.script.filteredCount ?? (outcome === 'filtered' ? task.sampleCount : 0));
    if (task.files.length === 0) {
      for (let index = filtered; index < task.sampleCount; index += 1) {
        const fileId = newId();
        task.files.push(fileId);
        this.#files.set(fileId, task.name);
      }
    }
    const reasons = task.script.filteredReasons ?? (filtered > 0 ? [defaultFilteredReason] : []);
    if (task.files.length === 0) {
      // As fixture poll_done_filtered: only the filter counts, no samples and no @type.
      return { name: task.name, done: true, response: { generateVideoResponse: { raiMediaFilteredCount: filtered, raiMediaFilteredReasons: reasons } } };
    }
    const generatedSamples = task.files.map((fileId) => ({ video: { uri: task.script.videoUri ?? `${origin}/v1beta/files/${fileId}:download?alt=media` } }));
    return {
      name: task.name,
      done: true,
      response: {
        '@type': predictLongRunningResponseType,
        generateVideoResponse: filtered === 0 ? { generatedSamples } : { generatedSamples, raiMediaFilteredCount: filtered, raiMediaFilteredReasons: reasons },
      },
    };
  }
}
