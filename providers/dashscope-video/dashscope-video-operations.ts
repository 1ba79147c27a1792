import { findUrlFields, type OperationHandler, type ProviderHost, type TaskAccepted, type TaskProgress, type VideoSubmitRequest, type VideoTaskQuery } from '../../core/index.js';
import { fetchDashScopeTask, submitDashScopeTask } from './dashscope-task-client.js';
import type { DashScopeVideoOptions } from './dashscope-video-options.js';
import { fromDashScopeTask } from './from-dashscope-task.js';
import { videoFamilyOf } from './video-family-of-model.js';
import { videoJobUsage } from './video-job-usage.js';

// The client's fields that hold a URL DashScope downloads: wn2.5's `image` and `audio_url`,
// the nested families' `metadata.input.audio_url`, `media[].url` and `reference_voice`.
const mediaUrlKeys = new Set(['image', 'audio_url', 'url', 'reference_voice']);

/**
 * `video.submit`: reads the request by its family's rules, checks the URLs DashScope will
 * fetch against the gateway's address policy, submits the task, and hands core the upstream
 * task id as the handle.
 */
export function createDashScopeVideoSubmit(host: ProviderHost): OperationHandler<VideoSubmitRequest, DashScopeVideoOptions> {
  return async (call): Promise<TaskAccepted> => {
    const job = videoFamilyOf(call.request.model).readRequest(call.request);
    await host.media.checkVendorFetchedUrls(findUrlFields(call.request, (key) => mediaUrlKeys.has(key)), call.signal);
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
