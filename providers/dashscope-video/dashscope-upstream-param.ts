import type { DashScopeVideoJob } from './dashscope-video-job.js';

/**
 * The client's field a DashScope refusal is about. DashScope's error body has no field of
 * its own (upstreams.md §4.1), so its message is read: a dotted path such as
 * `parameters.duration`, else the first field of the body sent that the message names as a
 * word ("The size is not match ...", fixture dashscope-video-task-lifecycle.json `failed`),
 * given back by the job's client name for it. Undefined when the message names none.
 */
export function dashScopeUpstreamParam(message: string, job: Pick<DashScopeVideoJob, 'input' | 'parameters' | 'clientField'>): string | undefined {
  const dotted = /\b(input|parameters)\.([A-Za-z_]+)/.exec(message);
  if (dotted !== null) return job.clientField(`${dotted[1]}.${dotted[2]}`);
  let first: { at: number; path: string } | undefined;
  for (const [section, fields] of [['input', job.input], ['parameters', job.parameters]] as const) {
    for (const key of Object.keys(fields)) {
      const at = message.search(new RegExp(`\\b${key}\\b`));
      if (at >= 0 && (first === undefined || at < first.at)) first = { at, path: `${section}.${key}` };
    }
  }
  return first === undefined ? undefined : job.clientField(first.path);
}
