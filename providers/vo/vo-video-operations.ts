import {
  malformedUpstreamAnswer,
  taskVanished,
  videoNotReady,
  type OperationCall,
  type ProviderHost,
  type TaskAccepted,
  type TaskProgress,
  type VideoTaskQuery,
} from '../../core/index.js';
import { callUpstream, headerValue, readUpstreamAnswer, videoContentResult } from '../../core/kit/index.js';
import { googleApiKeyHeader, googleApiUrl, type GoogleApiOptions } from '../shared/google-api/google-api.js';
import { downloadVoVideo } from './download-vo-video.js';
import { readVoOperation, voOperationExpected } from './from-vo-operation.js';
import type { VoVideoPlan } from './read-vo-request.js';
import { estimateVoUsage, voUsage, type VoTaskNotes } from './vo-billing.js';
import { voQueryError, voSubmitError } from './vo-error.js';
import { fetchVoFrame, type VoInlineImage } from './vo-frame.js';

type VoFrames = { image?: VoInlineImage; lastFrame?: VoInlineImage };

/**
 * The body of `POST .../models/{model}:predictLongRunning` (upstreams.md §1.11): one instance
 * with the prompt and the frames, then the parameters the Gemini API takes, in the order of
 * fixture gemini-veo-operation.json. Length, ratio, resolution and count are always sent, so
 * what is made is what was billed.
 */
export function toVoRequest(plan: VoVideoPlan, frames: VoFrames): { instances: [{ prompt: string } & VoFrames]; parameters: Record<string, string | number> } {
  return {
    instances: [
      {
        prompt: plan.prompt,
        ...(frames.image === undefined ? {} : { image: frames.image }),
        ...(frames.lastFrame === undefined ? {} : { lastFrame: frames.lastFrame }),
      },
    ],
    parameters: {
      aspectRatio: plan.aspectRatio,
      durationSeconds: plan.durationSeconds,
      resolution: plan.resolution,
      sampleCount: plan.sampleCount,
      ...(plan.negativePrompt === undefined ? {} : { negativePrompt: plan.negativePrompt }),
      ...(plan.personGeneration === undefined ? {} : { personGeneration: plan.personGeneration }),
    },
  };
}

// Operation names look like `models/{model}/operations/{id}`; anything else from the upstream
// is not turned into a path.
const isOperationName = (name: unknown): name is string =>
  typeof name === 'string' && /^[A-Za-z0-9._~-]+(?:\/[A-Za-z0-9._~-]+)*$/.test(name) && !name.split('/').includes('..');

/**
 * Starts a task with the channel's key (upstreams.md §1.11) and answers the operation's name;
 * an answer without one is a 502 that is not retried, since the task may have started.
 */
async function submitVoTask(host: ProviderHost, call: OperationCall<unknown, GoogleApiOptions>, body: ReturnType<typeof toVoRequest>): Promise<string> {
  const url = googleApiUrl(call, `models/${encodeURIComponent(call.upstreamModel)}:predictLongRunning`);
  const response = await callUpstream(host, call, { url, headers: googleApiKeyHeader(call), body: JSON.stringify(body) }, voSubmitError);
  let json: unknown;
  try {
    json = await response.body.json();
  } catch (error) {
    throw malformedUpstreamAnswer('the upstream accepted the task with an answer that is not JSON', { cause: error, retryable: false });
  }
  const name = (json as { name?: unknown } | null)?.name;
  if (!isOperationName(name)) throw malformedUpstreamAnswer('the upstream accepted the task without an operation name', { retryable: false });
  return name;
}

/** One poll of a task's operation with the channel's key; a 404 stays a 404, which tells core the upstream lost the task. */
async function pollVoOperation(host: ProviderHost, call: OperationCall<VideoTaskQuery, GoogleApiOptions>) {
  const name = call.request.handle;
  if (!isOperationName(name)) throw taskVanished(`"${name}" is not an operation name this channel can ask about`);
  const response = await callUpstream(host, call, { method: 'GET', url: googleApiUrl(call, name), headers: googleApiKeyHeader(call) }, voQueryError);
  return readVoOperation(await readUpstreamAnswer(response.body, voOperationExpected));
}

/**
 * The three vo operations (providers/vo/README.md); the operation's name is the task's handle.
 * A success is billed for the videos the upstream made, at most the number asked for (the
 * safety filters may remove some); the download is the first video's.
 */
export function createVoVideoOperations(host: ProviderHost, notes: VoTaskNotes) {
  return {
    'video.submit': async (call: OperationCall<VoVideoPlan, GoogleApiOptions>): Promise<TaskAccepted> => {
      const plan = call.request;
      const [image, lastFrame] = await Promise.all([
        plan.firstFrame === undefined ? undefined : fetchVoFrame(plan.firstFrame, host.media, call.signal),
        plan.lastFrame === undefined ? undefined : fetchVoFrame(plan.lastFrame, host.media, call.signal),
      ]);
      const handle = await submitVoTask(host, call, toVoRequest(plan, { image, lastFrame }));
      await notes.remember(handle, { secondsEach: plan.durationSeconds, resolution: plan.resolution, sampleCount: plan.sampleCount });
      return {
        kind: 'task',
        handle,
        usage: estimateVoUsage(plan),
        details: { seconds: plan.durationSeconds, aspectRatio: plan.aspectRatio, resolution: plan.resolution, sampleCount: plan.sampleCount },
      };
    },
    'video.status': async (call: OperationCall<VideoTaskQuery, GoogleApiOptions>): Promise<TaskProgress> => {
      const { progress, videoUris } = await pollVoOperation(host, call);
      if (progress.status !== 'succeeded') return progress;
      const note = await notes.recall(call.request.handle);
      if (note === undefined) return progress;
      return { ...progress, usage: voUsage(note.secondsEach, Math.min(videoUris.length, note.sampleCount), note.resolution, 'upstream') };
    },
    'video.content': async (call: OperationCall<VideoTaskQuery, GoogleApiOptions>) => {
      const { progress, videoUris } = await pollVoOperation(host, call);
      if (videoUris[0] === undefined) throw videoNotReady(`the upstream has no video for this task (it is ${progress.status})`);
      const response = await downloadVoVideo(host, call, videoUris[0]);
      return videoContentResult(response, headerValue(response, 'content-type')?.split(';', 1)[0]?.trim());
    },
  };
}
