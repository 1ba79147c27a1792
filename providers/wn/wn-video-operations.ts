import type { OperationHandler, ProviderHost, TaskAccepted, TaskProgress, VideoSubmitRequest, VideoTaskQuery } from '../../core/index.js';
import { fromWnTask } from './from-wn-task.js';
import { readWnVideoRequest, wnJobUsage } from './read-wn-video-request.js';
import { requireWnModelKind, wnTiers } from './wn-model-kind.js';
import type { WnOptions } from './wn-options.js';
import { fetchWnTask, submitWnTask } from './wn-task-client.js';

/** `video.submit`: reads the request by its model's rules, submits the task, and hands core the upstream task id as the handle. */
export function createWnSubmit(host: ProviderHost): OperationHandler<VideoSubmitRequest, WnOptions> {
  return async (call): Promise<TaskAccepted> => {
    const job = readWnVideoRequest(call.request);
    const taskId = await submitWnTask(host, call, job);
    return { kind: 'task', handle: taskId, usage: wnJobUsage(job), details: job.details };
  };
}

/** `video.status`: asks the upstream about the task and maps its state (see {@link fromWnTask}). */
export function createWnStatus(host: ProviderHost): OperationHandler<VideoTaskQuery, WnOptions> {
  return async (call): Promise<TaskProgress> => {
    const answer = await fetchWnTask(host, call, call.request.handle);
    return fromWnTask(answer, wnTiers[requireWnModelKind(call.request.model).family]);
  };
}
