import {
  bearerAuthorization,
  callUpstream,
  dashScopeCodeStatus,
  describeDashScopeErrorText,
  invalidUpstreamAnswer,
  parseUpstreamJson,
  prefixedUpstreamUrl,
  readBodyExcerpt,
  readUpstreamAnswer,
  retryAfterHeader,
  upstreamStatusError,
  type OperationCall,
  type PathPrefixOptions,
  type ProviderHost,
} from '../../core/index.js';
import type { DashScopeVideoJob } from './dashscope-video-job.js';
import { dashScopeSubmitError } from './dashscope-upstream-error.js';
import { dashScopeSubmitAnswerSchema } from './dashscope-task-schemas.js';

/** The async video path under the channel's prefix, the same for every family (upstreams.md §4.2, §4.4). */
export const dashScopeSynthesisPath = '/services/aigc/video-generation/video-synthesis';

/**
 * Submits a task: `POST {base_url}{path_prefix}/services/aigc/video-generation/video-synthesis`
 * with the channel's key as a Bearer token and `X-DashScope-Async: enable`, without which
 * DashScope refuses (upstreams.md §4.1). Returns the upstream's `output.task_id`.
 */
export async function submitDashScopeTask(host: ProviderHost, call: OperationCall<unknown, PathPrefixOptions>, job: DashScopeVideoJob): Promise<string> {
  const response = await callUpstream(
    host,
    call,
    {
      url: prefixedUpstreamUrl(call, dashScopeSynthesisPath),
      headers: { ...bearerAuthorization(call), 'x-dashscope-async': 'enable' },
      body: JSON.stringify({ model: call.upstreamModel, input: job.input, parameters: job.parameters }),
    },
    async (refusal) => dashScopeSubmitError(refusal.statusCode, await readBodyExcerpt(refusal), job, retryAfterHeader(refusal)),
  );
  const text = await readBodyExcerpt(response);
  let answer;
  try {
    answer = dashScopeSubmitAnswerSchema.parse(parseUpstreamJson(text));
  } catch (error) {
    // Not retried: the upstream may have started a task that another channel would start again.
    throw invalidUpstreamAnswer('a task submission answer', { retryable: false, cause: error });
  }
  const taskId = answer.output?.task_id;
  if (typeof taskId === 'string' && taskId !== '') return taskId;
  // An error body sent with HTTP 200 is judged by its code.
  if (typeof answer.code === 'string') throw dashScopeSubmitError(dashScopeCodeStatus(answer.code), text, job);
  throw invalidUpstreamAnswer('a task submission answer', { retryable: false });
}

/** Asks about a task: `GET {base_url}{path_prefix}/tasks/{task_id}` with the key only (upstreams.md §4.1); returns the parsed JSON. */
export async function fetchDashScopeTask(host: ProviderHost, call: OperationCall<unknown, PathPrefixOptions>, taskId: string): Promise<unknown> {
  const response = await callUpstream(host, call, { method: 'GET', url: prefixedUpstreamUrl(call, `/tasks/${encodeURIComponent(taskId)}`), headers: bearerAuthorization(call) }, (refusal) =>
    upstreamStatusError(refusal, describeDashScopeErrorText),
  );
  return readUpstreamAnswer(response.body, 'a task answer', { retryable: true });
}
