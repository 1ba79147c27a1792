import { describeDashScopeError, errorForUpstreamStatus, GatewayError, isChannelTrouble, readDashScopeErrorBody, upstreamRefusal } from '../../core/index.js';
import type { DashScopeVideoJob } from './dashscope-video-job.js';

/**
 * The error for a non-2xx answer to a submit. A refusal of the request (400 and the other
 * client statuses) is a 502 with DashScope's code, its message and as `param` the client's
 * name of the field the message names (spec part 2, video errors), not retried: another
 * channel would refuse the same request. The channel's own trouble (401, 403, 404, 408,
 * 429, 5xx, an account in arrears) is judged as `upstreamStatusError` does, so the task goes
 * to another channel before any is accepted.
 */
export function dashScopeSubmitError(status: number, bodyText: string, job: DashScopeVideoJob, retryAfterSeconds?: number): GatewayError {
  const error = readDashScopeErrorBody(bodyText);
  const channelStatus = error?.code === 'Arrearage' ? 403 : status;
  if (isChannelTrouble(channelStatus)) {
    return errorForUpstreamStatus(channelStatus, (error === undefined ? undefined : describeDashScopeError(error)) ?? `the upstream answered HTTP ${status}`, retryAfterSeconds);
  }
  const message = error?.message ?? `the upstream answered HTTP ${status}`;
  return upstreamRefusal(error?.code, `the upstream refused the task: ${message}`, { param: dashScopeUpstreamParam(message, job) });
}

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
