import {
  findUrlFields,
  type OperationHandler,
  type PathPrefixOptions,
  type ProviderHost,
  type TaskAccepted,
  type TaskProgress,
  type VendorFetchedUrl,
  type VideoSubmitRequest,
  type VideoTaskQuery,
} from '../../core/index.js';
import { fetchDashScopeTask, submitDashScopeTask } from './dashscope-task-client.js';
import { videoFamilyOf } from './dashscope-video-family.js';
import { videoJobUsage, type DashScopeVideoJob } from './dashscope-video-job.js';
import { fromDashScopeTask } from './from-dashscope-task.js';

// The client's fields that hold a URL DashScope downloads: wn2.5's `image` and `audio_url`,
// the nested families' `metadata.input.audio_url`, `media[].url` and `reference_voice`.
const mediaUrlKeys = new Set(['image', 'audio_url', 'url', 'reference_voice']);

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
 * `video.submit`: with the request its family read in `prepare`, checks the URLs DashScope
 * will fetch against the gateway's address policy, submits the task, and hands core the
 * upstream task id as the handle.
 */
export function createDashScopeVideoSubmit(host: ProviderHost): OperationHandler<PreparedVideoRequest, PathPrefixOptions> {
  return async (call): Promise<TaskAccepted> => {
    const { job, vendorFetchedUrls } = call.request;
    await host.media.checkVendorFetchedUrls(vendorFetchedUrls, call.signal);
    const taskId = await submitDashScopeTask(host, call, job);
    return { kind: 'task', handle: taskId, usage: videoJobUsage(job), details: job.details };
  };
}

/** `video.status`: asks the upstream about the task and maps its state at the tiers its model makes (see {@link fromDashScopeTask}). */
export function createDashScopeVideoStatus(host: ProviderHost): OperationHandler<VideoTaskQuery, PathPrefixOptions> {
  return async (call): Promise<TaskProgress> => {
    const answer = await fetchDashScopeTask(host, call, call.request.handle);
    const model = call.request.model;
    return fromDashScopeTask(answer, videoFamilyOf(model).tiersOf(model));
  };
}
