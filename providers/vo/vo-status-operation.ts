import type { GoogleApiOptions, OperationCall, ProviderHost, TaskProgress, VideoTaskQuery } from '../../core/index.js';
import { getVoOperation } from './call-vo.js';
import { voUsage } from './estimate-vo-usage.js';
import { readVoOperation } from './from-vo-operation.js';
import type { VoTaskNotes } from './vo-task-notes.js';

/**
 * `video.status`: one poll of the operation, mapped by {@link readVoOperation}. A success is
 * billed for the videos the upstream made, at most the number asked for: the safety filters
 * may have removed some.
 */
export function createVoStatusOperation(host: ProviderHost, notes: VoTaskNotes) {
  return async (call: OperationCall<VideoTaskQuery, GoogleApiOptions>): Promise<TaskProgress> => {
    const { progress, videoUris } = readVoOperation(await getVoOperation(host, call, call.request.handle));
    if (progress.status !== 'succeeded') return progress;
    const note = await notes.recall(call.request.handle);
    if (note === undefined) return progress;
    return { ...progress, usage: voUsage(note.secondsEach, Math.min(videoUris.length, note.sampleCount), note.resolution, 'upstream') };
  };
}
