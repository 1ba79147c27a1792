import type { GoogleApiOptions, OperationCall, ProviderHost, TaskAccepted } from '../../core/index.js';
import { submitVoTask } from './call-vo.js';
import { voUsage } from './estimate-vo-usage.js';
import { fetchVoFrame } from './fetch-vo-frame.js';
import type { VoVideoPlan } from './read-vo-request.js';
import { toVoRequest } from './to-vo-request.js';
import type { VoTaskNotes } from './vo-task-notes.js';

/**
 * `video.submit`: the plan `prepare` made of the request before the reservation
 * (`readVoRequest`), its frames read (in parallel, URLs through the media guard), and one
 * `predictLongRunning` call made. The operation name is the task's handle.
 */
export function createVoSubmitOperation(host: ProviderHost, notes: VoTaskNotes) {
  return async (call: OperationCall<VoVideoPlan, GoogleApiOptions>): Promise<TaskAccepted> => {
    const plan = call.request;
    const [image, lastFrame] = await Promise.all([
      plan.firstFrame === undefined ? undefined : fetchVoFrame(plan.firstFrame, host.media, call.signal),
      plan.lastFrame === undefined ? undefined : fetchVoFrame(plan.lastFrame, host.media, call.signal),
    ]);
    const handle = await submitVoTask(host, call, toVoRequest(plan, { ...(image === undefined ? {} : { image }), ...(lastFrame === undefined ? {} : { lastFrame }) }));
    await notes.remember(handle, { secondsEach: plan.durationSeconds, resolution: plan.resolution, sampleCount: plan.sampleCount });
    return {
      kind: 'task',
      handle,
      usage: voUsage(plan.durationSeconds, plan.sampleCount, plan.resolution, 'estimated'),
      details: { seconds: plan.durationSeconds, aspectRatio: plan.aspectRatio, resolution: plan.resolution, sampleCount: plan.sampleCount },
    };
  };
}
