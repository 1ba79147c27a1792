import { readBodyExcerpt, upstreamStatusError, type OperationCall, type ProviderHost, type UpstreamResponse } from '../../core/index.js';
import type { WnOptions } from './wn-options.js';
import { describeWnError, invalidWnAnswer, readWnErrorBody, wnCodeStatus, wnSubmitError } from './wn-upstream-error.js';
import { wnSubmitAnswerSchema } from './wn-task-schemas.js';
import type { WnVideoJob } from './wn-video-job.js';

/** The async video path under the channel's prefix (upstreams.md §4.2). */
export const wnSynthesisPath = '/services/aigc/video-generation/video-synthesis';

const retryAfterOf = (response: UpstreamResponse) => {
  const seconds = Number(response.headers['retry-after']);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
};

/**
 * Submits a task: `POST {base_url}{path_prefix}/services/aigc/video-generation/video-synthesis`
 * with the channel's key as a Bearer token and `X-DashScope-Async: enable`, without which
 * DashScope refuses (upstreams.md §4.1). Returns the upstream's `output.task_id`.
 */
export async function submitWnTask(host: ProviderHost, call: OperationCall<unknown, WnOptions>, job: WnVideoJob): Promise<string> {
  const body = JSON.stringify({ model: call.upstreamModel, input: job.input, parameters: job.parameters });
  const response = await host.http.request({
    method: 'POST',
    url: `${call.channel.baseUrl}${call.options.path_prefix}${wnSynthesisPath}`,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${call.channel.apiKey}`, 'x-dashscope-async': 'enable' },
    body,
    signal: call.signal,
    timeouts: call.channel.timeouts,
  });
  if (response.statusCode < 200 || response.statusCode >= 300) throw wnSubmitError(response.statusCode, await readBodyExcerpt(response), job, retryAfterOf(response));
  const text = await readBodyExcerpt(response);
  let answer;
  try {
    answer = wnSubmitAnswerSchema.parse(JSON.parse(text));
  } catch (error) {
    // Not retried: the upstream may have started a task that another channel would start again.
    throw invalidWnAnswer('a task submission answer', false, error);
  }
  const taskId = answer.output?.task_id;
  if (typeof taskId === 'string' && taskId !== '') return taskId;
  // An error body sent with HTTP 200 is judged by its code.
  if (typeof answer.code === 'string') throw wnSubmitError(wnCodeStatus(answer.code), text, job);
  throw invalidWnAnswer('a task submission answer', false);
}

/** Asks about a task: `GET {base_url}{path_prefix}/tasks/{task_id}` with the key only (upstreams.md §4.1); returns the parsed JSON. */
export async function fetchWnTask(host: ProviderHost, call: OperationCall<unknown, WnOptions>, taskId: string): Promise<unknown> {
  const response = await host.http.request({
    method: 'GET',
    url: `${call.channel.baseUrl}${call.options.path_prefix}/tasks/${encodeURIComponent(taskId)}`,
    headers: { authorization: `Bearer ${call.channel.apiKey}` },
    signal: call.signal,
    timeouts: call.channel.timeouts,
  });
  if (response.statusCode < 200 || response.statusCode >= 300) {
    throw await upstreamStatusError(response, (text) => {
      const error = readWnErrorBody(text);
      return error === undefined ? undefined : describeWnError(error);
    });
  }
  try {
    return await response.body.json();
  } catch (error) {
    throw invalidWnAnswer('a task answer', true, error);
  }
}
