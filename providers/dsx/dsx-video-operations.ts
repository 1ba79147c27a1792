import { z } from 'zod';
import { emptyUsage, GatewayError, upstreamFailed, videoNotReady, type OperationCall, type OperationHandler, type ProviderHost, type UpstreamResponse, type VideoTaskQuery, type BytesResult, type JsonResult, type TaskAccepted, type TaskProgress } from '../../core/index.js';
import {
  bearerAuthorization,
  callUpstream,
  errorForUpstreamStatus,
  isChannelTrouble,
  isSuccessStatus,
  prefixedUpstreamUrl,
  readBodyExcerpt,
  readUpstreamAnswer,
  retryAfterHeader,
  upstreamRefusal,
  type UpstreamCall,
} from '../../core/kit/index.js';
import { arkStatusError, describeArkError, readArkErrorBody } from '../shared/ark/ark-api-errors.js';
import { lookUpDsxAssets } from './dsx-asset-operations.js';
import type { DsxOptions } from './dsx-options.js';
import { estimateDsxUsage, readDsxSubmission, toDsxTaskRequest, type PreparedDsxSubmission } from './dsx-submission.js';
import { dsxModerationRecord, dsxTaskSchema, fromDsxTask, type DsxTask } from './from-dsx-task.js';

/** The answer to a create: `{"id": "cgt-..."}` only (upstreams.md §3.3); lenient like every upstream body. */
const dsxCreatedTaskSchema = z.looseObject({ id: z.string().min(1) });

/** A request to `{base_url}{path_prefix}{path}` with the channel's key as a Bearer token (upstreams.md §3.1), for `callUpstream`. */
function dsxCall(call: OperationCall<unknown, DsxOptions>, method: 'GET' | 'POST', path: string, body?: unknown): UpstreamCall {
  const headers = { ...bearerAuthorization(call), accept: 'application/json' };
  return { method, url: prefixedUpstreamUrl(call, path), headers, body: body === undefined ? undefined : JSON.stringify(body) };
}

/**
 * The error for a refused create. The channel's own trouble (401, 403, 404 unknown model,
 * 408, 429, 5xx) is retryable on another channel; any other refusal is the request's, passed
 * through as spec part 2 says: 502 with Ark's code (`InvalidParameter`) and its `param`
 * (`content[0].image_url.url`, a path in the upstream body), not retried.
 */
async function dsxSubmitError(response: UpstreamResponse): Promise<GatewayError> {
  const error = readArkErrorBody(await readBodyExcerpt(response));
  const message = describeArkError(error) ?? `the upstream answered HTTP ${response.statusCode}`;
  if (isChannelTrouble(response.statusCode)) return errorForUpstreamStatus(response.statusCode, message, retryAfterHeader(response));
  return upstreamRefusal(error?.code, error?.message ?? message, { param: error?.param === '' ? undefined : error?.param });
}

/**
 * `GET /contents/generations/tasks/{id}` (upstreams.md §3.3), the handle being Ark's `cgt-...`
 * task id. A 404 stays a 404 (core then marks the task vanished and refunds it); other failures
 * leave the task as it is. An unreadable 2xx is a retryable 502.
 */
async function readDsxTask(host: ProviderHost, call: OperationCall<VideoTaskQuery, DsxOptions>): Promise<DsxTask> {
  const path = `/contents/generations/tasks/${encodeURIComponent(call.request.handle)}`;
  const response = await callUpstream(host, call, dsxCall(call, 'GET', path), arkStatusError);
  return readUpstreamAnswer(response.body, 'a task object', { retryable: true }, dsxTaskSchema);
}

/**
 * `video.submit`: with the submission `prepare` checked, checks the URLs Ark will fetch (the
 * gateway's address policy), looks its `asset://` references up when the channel has the asset
 * API (each goes as the item type of its asset), creates the task (`POST
 * /contents/generations/tasks`, upstreams.md §3.3) and answers its handle with the usage a
 * success will cost. A create answered without an id is a 502 that is not retried: the
 * upstream may have started the task.
 */
export const createDsxSubmitOperation =
  (host: ProviderHost): OperationHandler<PreparedDsxSubmission, DsxOptions, TaskAccepted> =>
  async (call) => {
    let { submission } = call.request;
    await host.media.checkVendorFetchedUrls(call.request.vendorFetchedUrls, call.signal);
    if (submission.assets.length > 0 && call.options.assets !== undefined) {
      // The kinds of this channel's assets retype the references: a read only this channel can make.
      submission = readDsxSubmission(call.request.request, await lookUpDsxAssets(host, call, submission.assets));
    }
    const response = await callUpstream(host, call, dsxCall(call, 'POST', '/contents/generations/tasks', toDsxTaskRequest(submission, call.upstreamModel)), dsxSubmitError);
    const created = await readUpstreamAnswer(response.body, 'a created task', { retryable: false }, dsxCreatedTaskSchema);
    return {
      kind: 'task',
      handle: created.id,
      usage: estimateDsxUsage(submission),
      ...(submission.profile.succeededStatus === undefined ? {} : { succeededStatus: submission.profile.succeededStatus }),
      details: {
        seconds: Math.round(submission.seconds * 1000) / 1000,
        resolution: submission.resolution,
        ...(submission.ratio === undefined ? {} : { aspect_ratio: submission.ratio }),
        ...(submission.frames === undefined ? {} : { frames: submission.frames }),
      },
    };
  };

/** `video.status`: the task's progress (see `fromDsxTask`). */
export const createDsxStatusOperation =
  (host: ProviderHost): OperationHandler<VideoTaskQuery, DsxOptions, TaskProgress> =>
  async (call) =>
    fromDsxTask(await readDsxTask(host, call));

/** `video.moderation`: the moderation record built from the task (see `dsxModerationRecord`). */
export const createDsxModerationOperation =
  (host: ProviderHost): OperationHandler<VideoTaskQuery, DsxOptions, JsonResult> =>
  async (call) => ({ kind: 'json', body: dsxModerationRecord(await readDsxTask(host, call)), usage: emptyUsage('estimated') });

/**
 * `video.content`: the finished video's bytes, streamed from the pre-signed `video_url` the
 * task names (upstreams.md §3.3: valid about 24 h). The URL is its own credential, so the
 * channel's key is not sent to the storage host. It is the upstream's word, not the
 * operator's, so it goes through the media guard (`streamUpstreamUrl`), not `host.http`.
 */
export const createDsxContentOperation =
  (host: ProviderHost): OperationHandler<VideoTaskQuery, DsxOptions, BytesResult> =>
  async (call) => {
    const task = await readDsxTask(host, call);
    const url = task.content?.video_url ?? '';
    if (task.status !== 'succeeded' || url === '') throw videoNotReady(`the upstream task is ${task.status} and has no video to download`);
    const response = await host.media.streamUpstreamUrl(url, { signal: call.signal, timeouts: call.channel.timeouts, channelBaseUrl: call.channel.baseUrl });
    if (!isSuccessStatus(response)) {
      await response.body.dump();
      throw upstreamFailed(`the video's storage answered HTTP ${response.statusCode}; its link may have expired (links last about 24 hours)`);
    }
    const type = response.headers['content-type'];
    return { kind: 'bytes', body: response.body, contentType: typeof type === 'string' && type !== '' ? type : 'video/mp4', usage: emptyUsage('upstream') };
  };
