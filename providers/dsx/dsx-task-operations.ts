import { emptyUsage, GatewayError, isSuccessStatus, videoNotReady, type OperationHandler, type ProviderHost, type VideoTaskQuery } from '../../core/index.js';
import { dsxModerationRecord } from './dsx-moderation-record.js';
import type { DsxOptions } from './dsx-options.js';
import { fromDsxTask } from './from-dsx-task.js';
import { readDsxTask } from './read-dsx-task.js';

/** `video.status`: the task's progress (see `fromDsxTask`). */
export const createDsxStatusOperation =
  (host: ProviderHost): OperationHandler<VideoTaskQuery, DsxOptions> =>
  async (call) => {
    return fromDsxTask(await readDsxTask(host, call));
  };

/** `video.moderation`: the moderation record built from the task (see `dsxModerationRecord`). */
export const createDsxModerationOperation =
  (host: ProviderHost): OperationHandler<VideoTaskQuery, DsxOptions> =>
  async (call) => {
    const task = await readDsxTask(host, call);
    return { kind: 'json', body: dsxModerationRecord(task), usage: emptyUsage('estimated') };
  };

/**
 * `video.content`: the finished video's bytes, streamed from the pre-signed `video_url` the
 * task names (upstreams.md §3.3: valid about 24 h). The URL is its own credential, so the
 * channel's key is not sent to the storage host. It is the upstream's word, not the
 * operator's, so it goes through the media guard (`streamUpstreamUrl`), not `host.http`.
 */
export const createDsxContentOperation =
  (host: ProviderHost): OperationHandler<VideoTaskQuery, DsxOptions> =>
  async (call) => {
    const task = await readDsxTask(host, call);
    const url = task.content?.video_url ?? '';
    if (task.status !== 'succeeded' || url === '') throw videoNotReady(`the upstream task is ${task.status} and has no video to download`);
    const response = await host.media.streamUpstreamUrl(url, { signal: call.signal, timeouts: call.channel.timeouts, channelBaseUrl: call.channel.baseUrl });
    if (!isSuccessStatus(response)) {
      await response.body.dump();
      throw new GatewayError(502, 'upstream_error', `the video's storage answered HTTP ${response.statusCode}; its link may have expired (links last about 24 hours)`);
    }
    const type = response.headers['content-type'];
    return { kind: 'bytes', body: response.body, contentType: typeof type === 'string' && type !== '' ? type : 'video/mp4', usage: emptyUsage('upstream') };
  };
