import type { DsxSubmission } from './dsx-submission.js';

/** The body of `POST /contents/generations/tasks` (upstreams.md §3.3): model, content, then the top-level fields. */
export function toDsxTaskRequest(submission: DsxSubmission, upstreamModel: string): Record<string, unknown> {
  return { model: upstreamModel, content: submission.content, ...submission.fields };
}
