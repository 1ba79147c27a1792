import { z } from 'zod';
import {
  GatewayError,
  invalidRequest,
  type OperationHandler,
  type ProviderHost,
  type TaskAccepted,
  type TaskProgress,
  type VendorFetchedUrl,
  type VideoSubmitRequest,
  type VideoTaskQuery,
} from '../../core/index.js';
import {
  findUrlFields,
  invalidUpstreamAnswer,
  isChannelTrouble,
  parseUpstreamJson,
  quoted,
  readBodyExcerpt,
  readUpstreamAnswer,
  upstreamRefusal,
  type PathPrefixOptions,
} from '../../core/kit/index.js';
import { callDashScope } from '../shared/dashscope/dashscope-api.js';
import { dashScopeCodeStatus, dashScopeError, readDashScopeErrorBody } from '../shared/dashscope/dashscope-api-errors.js';
import { videoJobUsage, type DashScopeVideoFamily, type DashScopeVideoJob } from './dashscope-video-family.js';
import { fromDashScopeTask } from './from-dashscope-task.js';
import { hxFamily } from './hx-family.js';
import { wnFamily } from './wn-family.js';

/** Every family the dashscope-video plugin serves. */
export const dashScopeVideoFamilies: readonly DashScopeVideoFamily[] = [wnFamily, hxFamily];

/**
 * The family of a client model id: the one whose name the id starts with (`wn2.7-r2v` → wn,
 * `hx-1.0-t2v` → hx). The id the client sent decides, not the upstream's after `model_map`,
 * so the rules follow the spec's ids whatever a channel sends upstream. An id of no family
 * is a 400 naming `model`; an id of a family without rules is refused by the family.
 */
export function videoFamilyOf(model: string): DashScopeVideoFamily {
  const family = dashScopeVideoFamilies.find((candidate) => model.startsWith(candidate.name));
  if (family === undefined) {
    const names = dashScopeVideoFamilies.map((candidate) => candidate.name).join(' or ');
    throw invalidRequest(`model: ${quoted(model)} is not a dashscope-video model; the dashscope-video plugin serves model ids starting with ${names}`, { param: 'model' });
  }
  return family;
}

// The client's fields that hold a URL DashScope downloads: wn2.5's `image` and `audio_url`,
// the nested families' `metadata.input.audio_url`, `media[].url` and `reference_voice`.
const mediaUrlKeys = new Set(['image', 'audio_url', 'url', 'reference_voice']);

/** The submit answer `{output: {task_status, task_id}, request_id}`, or an error body sent with HTTP 200; lenient. */
const submitAnswerSchema = z.looseObject({
  output: z.looseObject({ task_id: z.string().nullish(), task_status: z.string().nullish() }).nullish(),
  code: z.string().nullish(),
  message: z.string().nullish(),
});

/** A submission as the plugin prepares it: read by its family's rules, and the URLs DashScope will fetch. */
export interface PreparedVideoRequest {
  job: DashScopeVideoJob;
  /** Checked against the gateway's address policy before the submit. */
  vendorFetchedUrls: VendorFetchedUrl[];
}

/**
 * The plugin's `prepare` of `video.submit`: the family of the client's model id reads the
 * request (see `DashScopeVideoFamily.readRequest`), once, before any quota is touched.
 * @throws GatewayError 400 `invalid_request` naming the field (`model` for an id of no family).
 */
export function prepareVideoRequest(request: VideoSubmitRequest): PreparedVideoRequest {
  return { job: videoFamilyOf(request.model).readRequest(request), vendorFetchedUrls: findUrlFields(request, (key) => mediaUrlKeys.has(key)) };
}

/**
 * `video.submit`: checks the URLs DashScope will fetch against the gateway's address policy,
 * then submits the task with `X-DashScope-Async: enable`, without which DashScope refuses
 * (upstreams.md §4.1); the upstream's `output.task_id` is the task's handle.
 */
export function createDashScopeVideoSubmit(host: ProviderHost): OperationHandler<PreparedVideoRequest, PathPrefixOptions, TaskAccepted> {
  return async (call): Promise<TaskAccepted> => {
    const { job, vendorFetchedUrls } = call.request;
    await host.media.checkVendorFetchedUrls(vendorFetchedUrls, call.signal);
    const body = JSON.stringify({ model: call.upstreamModel, input: job.input, parameters: job.parameters });
    const headers = { 'x-dashscope-async': 'enable' };
    const response = await callDashScope(host, call, '/services/aigc/video-generation/video-synthesis', { body, headers }, (status, text, retryAfter) =>
      dashScopeSubmitError(status, text, job, retryAfter),
    );
    const text = await readBodyExcerpt(response);
    let answer;
    try {
      answer = submitAnswerSchema.parse(parseUpstreamJson(text));
    } catch (error) {
      // Not retried: the upstream may have started a task that another channel would start again.
      throw invalidUpstreamAnswer('a task submission answer', { retryable: false, cause: error });
    }
    const taskId = answer.output?.task_id;
    // An error body sent with HTTP 200 is judged by its code.
    if (typeof taskId !== 'string' || taskId === '') {
      if (typeof answer.code === 'string') throw dashScopeSubmitError(dashScopeCodeStatus(answer.code), text, job);
      throw invalidUpstreamAnswer('a task submission answer', { retryable: false });
    }
    return { kind: 'task', handle: taskId, usage: videoJobUsage(job), details: job.details };
  };
}

/** `video.status`: `GET /tasks/{task_id}` (upstreams.md §4.1), the answer mapped at the tiers its model makes (see {@link fromDashScopeTask}). */
export function createDashScopeVideoStatus(host: ProviderHost): OperationHandler<VideoTaskQuery, PathPrefixOptions, TaskProgress> {
  return async (call): Promise<TaskProgress> => {
    const response = await callDashScope(host, call, `/tasks/${encodeURIComponent(call.request.handle)}`);
    const answer = await readUpstreamAnswer(response.body, 'a task answer', { retryable: true });
    return fromDashScopeTask(answer, videoFamilyOf(call.request.model).tiersOf(call.request.model));
  };
}

/**
 * The error for a non-2xx answer to a submit. A refusal of the request (400 and the other
 * client statuses) is a 502 with DashScope's code, its message and as `param` the client's
 * name of the field the message names (spec part 2, video errors), not retried: another
 * channel would refuse the same request. The channel's own trouble (401, 403, 408, 429,
 * 5xx, an account in arrears) and a model it lacks (404, `Model.AccessDenied`) are judged as
 * `dashScopeError` does, so the task goes to another channel before any is accepted.
 */
export function dashScopeSubmitError(status: number, bodyText: string, job: DashScopeVideoJob, retryAfterSeconds?: number): GatewayError {
  const error = readDashScopeErrorBody(bodyText);
  const channelStatus = error?.code === 'Arrearage' ? 403 : status;
  if (isChannelTrouble(channelStatus)) {
    return dashScopeError(channelStatus, error, retryAfterSeconds);
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
