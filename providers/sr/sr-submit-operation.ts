import type { OperationCall, OperationResult, ProviderHost, VideoSubmitRequest } from '../../core/index.js';
import { callSr, isSuccess, srJsonBody, srMultipartBody, srVideoPath, type SrRequestBody } from './call-sr.js';
import { readSrVideo, srSecondsOf } from './from-sr-video.js';
import { readSrRequest, type SrRequestPlan } from './read-sr-request.js';
import { resolveSrReference } from './resolve-sr-reference.js';
import { srSubmitError, unreadAcceptance } from './sr-error.js';
import type { SrOptions } from './sr-options.js';
import { srUsage } from './sr-usage.js';
import { toSrCreateFields, toSrCreateForm, toSrRemixBody, type SrReferenceFile } from './to-sr-request.js';

/** A submission checked and its reference image in hand: the same for every channel it tries. */
interface PreparedSrRequest {
  plan: SrRequestPlan;
  reference?: SrReferenceFile;
}

async function prepare(host: ProviderHost, request: VideoSubmitRequest, signal: AbortSignal): Promise<PreparedSrRequest> {
  const plan = readSrRequest(request);
  return { plan, reference: plan.reference === undefined ? undefined : await resolveSrReference(host, plan.reference, signal) };
}

// Failover calls the next channel's handler (another provider instance) with the same request
// object, so the reference image is fetched once per submission, not once per channel.
const prepared = new WeakMap<VideoSubmitRequest, Promise<PreparedSrRequest>>();

/** Where the submission goes and its body: a remix, a text-to-video JSON body, or an image-to-video form. */
async function requestOf(ready: PreparedSrRequest, upstreamModel: string): Promise<{ path: string; body: SrRequestBody }> {
  const { plan, reference } = ready;
  if (plan.remixFromVideoId !== undefined) return { path: srVideoPath(plan.remixFromVideoId, '/remix'), body: srJsonBody(toSrRemixBody(plan)) };
  const fields = toSrCreateFields(plan, upstreamModel);
  return { path: '/videos', body: reference === undefined ? srJsonBody(fields) : await srMultipartBody(toSrCreateForm(fields, reference)) };
}

/**
 * `video.submit` for sr-2 on an OpenAI videos upstream (upstreams.md §2.9). Text-to-video goes
 * to `POST /videos` as JSON with every field spelled out (`seconds` as a string); with a
 * reference image, as multipart with the image as the file `input_reference`; a remix goes to
 * `POST /videos/{id}/remix` with the prompt alone. The upstream's video id is the task's
 * handle. The length and size the upstream reports for the new video (a remix inherits its
 * original's) become the task's `seconds` and `size` and what a success costs.
 */
export function createSrSubmitOperation(host: ProviderHost) {
  return async (call: OperationCall<VideoSubmitRequest, SrOptions>): Promise<OperationResult> => {
    let preparing = prepared.get(call.request);
    if (preparing === undefined) {
      preparing = prepare(host, call.request, call.signal);
      prepared.set(call.request, preparing);
      preparing.catch(() => prepared.delete(call.request));
    }
    const ready = await preparing;
    const { path, body } = await requestOf(ready, call.upstreamModel);
    const response = await callSr(host, call, 'POST', path, body);
    if (!isSuccess(response)) throw await srSubmitError(response, ready.plan.remixFromVideoId !== undefined);
    // Once the upstream said yes, asking another channel would start a second video.
    const text = await response.body.text().catch((error: unknown) => {
      throw unreadAcceptance(error);
    });
    const video = readSrVideo(text, false);
    const seconds = srSecondsOf(video) ?? ready.plan.seconds;
    const size = typeof video.size === 'string' && video.size !== '' ? video.size : ready.plan.size;
    return { kind: 'task', handle: video.id, usage: srUsage(seconds, size, 'estimated'), details: { seconds, size } };
  };
}
