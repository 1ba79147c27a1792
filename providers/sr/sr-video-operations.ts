import type { OperationCall, ProviderHost, TaskAccepted, VideoTaskQuery } from '../../core/index.js';
import { appendUploadFile, jsonBody, multipartBody, videoContentResult, type PathPrefixOptions, type UploadFile } from '../../core/kit/index.js';
import { callOpenAiCompatible } from '../shared/openai-compatible/openai-compatible.js';
import { readSrVideo, srSecondsOf, toSrTaskProgress } from './from-sr-video.js';
import type { PreparedSrRequest, SrRequestPlan } from './read-sr-request.js';
import { resolveSrReference } from './sr-reference-image.js';
import { srSubmitError, unreadAcceptance } from './sr-error.js';
import { srUsage } from './sr-usage.js';

/** The fields of `POST /videos` (upstreams.md §2.9): every one sent, defaults included, `seconds` as the string the upstream's enum is. */
export function toSrCreateFields(plan: SrRequestPlan, upstreamModel: string): Record<'model' | 'prompt' | 'seconds' | 'size', string> {
  return { model: upstreamModel, prompt: plan.prompt, seconds: String(plan.seconds), size: plan.size };
}

/** The multipart form of an image-to-video submission: the text fields, then the image as the file `input_reference`. */
export function toSrCreateForm(fields: Record<string, string>, reference: UploadFile): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  appendUploadFile(form, 'input_reference', reference);
  return form;
}

/** The body of `POST /videos/{id}/remix`: only the prompt; the new video keeps the original's model, length and size (upstreams.md §2.9). */
export function toSrRemixBody(plan: SrRequestPlan): { prompt: string } {
  return { prompt: plan.prompt };
}

/** The path of one upstream video under the channel's prefix, its id escaped: `/videos/{id}{suffix}` (upstreams.md §2.9). */
const srVideoPath = (id: string, suffix = ''): string => `/videos/${encodeURIComponent(id)}${suffix}`;

/** Where the submission goes and its body: a remix, a text-to-video JSON body, or an image-to-video form. */
async function submissionOf(host: ProviderHost, call: OperationCall<PreparedSrRequest, PathPrefixOptions>) {
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
 * The three sr operations on an OpenAI videos upstream (upstreams.md §2.9, providers/sr/README.md).
 * The upstream's video id is the task's handle; the length and size it reports for a new video
 * (a remix inherits its original's) become the task's `seconds` and `size` and what a success
 * costs. A 404 or 410 to a status poll stays a 4xx, which core reads as the task lost.
 */
export function createSrVideoOperations(host: ProviderHost) {
  return {
    'video.submit': async (call: OperationCall<PreparedSrRequest, PathPrefixOptions>): Promise<TaskAccepted> => {
      const plan = call.request;
      const { path, body } = await submissionOf(host, call);
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
    },
    'video.status': async (call: OperationCall<VideoTaskQuery, PathPrefixOptions>) => {
      const response = await callOpenAiCompatible(host, call, srVideoPath(call.request.handle), { method: 'GET' });
      return toSrTaskProgress(readSrVideo(await response.body.text(), true));
    },
    'video.content': async (call: OperationCall<VideoTaskQuery, PathPrefixOptions>) =>
      videoContentResult(await callOpenAiCompatible(host, call, srVideoPath(call.request.handle, '/content'), { method: 'GET' })),
  };
}
