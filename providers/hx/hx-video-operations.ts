import type { OperationHandler, ProviderHost, TaskAccepted, TaskProgress, VideoSubmitRequest, VideoTaskQuery } from '../../core/index.js';
import { fromHxTask } from './from-hx-task.js';
import type { HxOptions } from './hx-options.js';
import { fetchHxTask, submitHxTask } from './hx-task-client.js';
import { hxJobUsage, readHxRequest } from './read-hx-request.js';

/** `video.submit`: reads the request by its model's rules, submits the task, and hands core the upstream task id as the handle. */
export function createHxSubmit(host: ProviderHost): OperationHandler<VideoSubmitRequest, HxOptions> {
  return async (call): Promise<TaskAccepted> => {
    const job = readHxRequest(call.request);
    const taskId = await submitHxTask(host, call, job);
    return { kind: 'task', handle: taskId, usage: hxJobUsage(job), details: job.details };
  };
}

/** `video.status`: asks the upstream about the task and maps its state (see {@link fromHxTask}). */
export function createHxStatus(host: ProviderHost): OperationHandler<VideoTaskQuery, HxOptions> {
  return async (call): Promise<TaskProgress> => fromHxTask(await fetchHxTask(host, call, call.request.handle));
}
