import { callOpenAiCompatible, jsonBody, multipartBody, type OperationCall, type OperationResult, type PathPrefixOptions, type ProviderHost, type UpstreamRequestBody } from '../../core/index.js';
import { readSrVideo, srSecondsOf } from './from-sr-video.js';
import type { PreparedSrRequest } from './prepare-sr-request.js';
import { resolveSrReference } from './resolve-sr-reference.js';
import { srSubmitError, unreadAcceptance } from './sr-error.js';
import { srUsage } from './sr-usage.js';
import { srVideoPath } from './sr-video-path.js';
import { toSrCreateFields, toSrCreateForm, toSrRemixBody } from './to-sr-request.js';

/** Where the submission goes and its body: a remix, a text-to-video JSON body, or an image-to-video form. */
async function requestOf(host: ProviderHost, call: OperationCall<PreparedSrRequest, PathPrefixOptions>): Promise<{ path: string; body: UpstreamRequestBody }> {
  const plan = call.request;
  if (plan.remixFromVideoId !== undefined) return { path: srVideoPath(plan.remixFromVideoId, '/remix'), body: jsonBody(toSrRemixBody(plan)) };
  const fields = toSrCreateFields(plan, call.upstreamModel);
  const source = plan.reference;
  if (source === undefined) return { path: '/videos', body: jsonBody(fields) };
  // A failover to another sr channel reuses the image the first attempt fetched.
  const reference = await plan.referenceFile.get(() => resolveSrReference(host, source, call.signal));
  return { path: '/videos', body: await multipartBody(toSrCreateForm(fields, reference)) };
}

/**
 * `video.submit` for sr-2 on an OpenAI videos upstream (upstreams.md §2.9). Text-to-video goes
 * to `POST /videos` as JSON with every field spelled out (`seconds` as a string); with a
 * reference image, as multipart with the image as the file `input_reference`; a remix goes to
 * `POST /videos/{id}/remix` with the prompt alone. The upstream's video id is the task's
 * handle. The length and size the upstream reports for the new video (a remix inherits its
 * original's) become the task's `seconds` and `size` and what a success costs. The
 * submission arrives prepared (see `prepareSrRequest`).
 */
export function createSrSubmitOperation(host: ProviderHost) {
  return async (call: OperationCall<PreparedSrRequest, PathPrefixOptions>): Promise<OperationResult> => {
    const plan = call.request;
    const { path, body } = await requestOf(host, call);
    const remix = plan.remixFromVideoId !== undefined;
    const response = await callOpenAiCompatible(host, call, path, { body }, (refusal) => srSubmitError(refusal, remix));
    // Once the upstream said yes, asking another channel would start a second video.
    const text = await response.body.text().catch((error: unknown) => {
      throw unreadAcceptance(error);
    });
    const video = readSrVideo(text, false);
    const seconds = srSecondsOf(video) ?? plan.seconds;
    const size = typeof video.size === 'string' && video.size !== '' ? video.size : plan.size;
    return { kind: 'task', handle: video.id, usage: srUsage(seconds, size, 'estimated'), details: { seconds, size } };
  };
}
