import type { OperationHandler, ProviderHost, TaskAccepted, TaskProgress, VideoTaskQuery } from '../../core/index.js';
import { fetchDashScopeTask, submitDashScopeTask } from './dashscope-task-client.js';
import type { DashScopeVideoOptions } from './dashscope-video-options.js';
import { fromDashScopeTask } from './from-dashscope-task.js';
import type { PreparedVideoRequest } from './prepare-video-request.js';
import { videoFamilyOf } from './video-family-of-model.js';
import { videoJobUsage } from './video-job-usage.js';

/**
 * `video.submit`: with the request its family read in `prepare`, checks the URLs DashScope
 * will fetch against the gateway's address policy, submits the task, and hands core the
 * upstream task id as the handle.
 */
export function createDashScopeVideoSubmit(host: ProviderHost): OperationHandler<PreparedVideoRequest, DashScopeVideoOptions> {
  return async (call): Promise<TaskAccepted> => {
    const { job, vendorFetchedUrls } = call.request;
    await host.media.checkVendorFetchedUrls(vendorFetchedUrls, call.signal);
    const taskId = await submitDashScopeTask(host, call, job);
    return { kind: 'task', handle: taskId, usage: videoJobUsage(job), details: job.details };
  };
}

/** `video.status`: asks the upstream about the task and maps its state at the tiers its model makes (see {@link fromDashScopeTask}). */
export function createDashScopeVideoStatus(host: ProviderHost): OperationHandler<VideoTaskQuery, DashScopeVideoOptions> {
  return async (call): Promise<TaskProgress> => {
    const answer = await fetchDashScopeTask(host, call, call.request.handle);
    const model = call.request.model;
    return fromDashScopeTask(answer, videoFamilyOf(model).tiersOf(model));
  };
}
