import { callUpstream, readUpstreamAnswer, type OperationHandler, type ProviderHost } from '../../core/index.js';
import { dsxCall, dsxSubmitError } from './call-dsx.js';
import type { DsxOptions } from './dsx-options.js';
import { dsxCreatedTaskSchema } from './dsx-schemas.js';
import type { DsxSubmission } from './dsx-submission.js';
import { estimateDsxUsage } from './estimate-dsx-usage.js';
import { lookUpDsxAssets } from './look-up-dsx-assets.js';
import { readDsxSubmission } from './read-dsx-submission.js';
import type { PreparedDsxSubmission } from './prepare-dsx-submission.js';
import { toDsxTaskRequest } from './to-dsx-task-request.js';

/** What the task view shows of a submission. */
export function dsxTaskDetails(submission: DsxSubmission): Record<string, string | number> {
  return {
    seconds: Math.round(submission.seconds * 1000) / 1000,
    resolution: submission.resolution,
    ...(submission.ratio === undefined ? {} : { aspect_ratio: submission.ratio }),
    ...(submission.frames === undefined ? {} : { frames: submission.frames }),
  };
}

/**
 * `video.submit`: with the submission `prepare` checked, checks the URLs Ark will fetch (the
 * gateway's address policy, `MediaFetcher.checkVendorFetchedUrls`), looks its `asset://` references up when the channel
 * has the asset API (each goes as the item type of its asset), creates the task (`POST
 * /contents/generations/tasks`, upstreams.md §3.3) and answers its handle with the usage a
 * success will cost. A create answered without an id is a 502 that is not retried: the
 * upstream may have started the task.
 */
export const createDsxSubmitOperation =
  (host: ProviderHost): OperationHandler<PreparedDsxSubmission, DsxOptions> =>
  async (call) => {
    let { submission } = call.request;
    await host.media.checkVendorFetchedUrls(call.request.vendorFetchedUrls, call.signal);
    if (submission.assets.length > 0 && call.options.assets !== undefined) {
      // The kinds of this channel's assets retype the references: a read only this channel can make.
      submission = readDsxSubmission(call.request.request, await lookUpDsxAssets(host, call, submission.assets));
    }
    const response = await callUpstream(host, call, dsxCall(call, 'POST', '/contents/generations/tasks', toDsxTaskRequest(submission, call.upstreamModel)), dsxSubmitError);
    const created = await readUpstreamAnswer(response.body, 'a created task', { retryable: false }, dsxCreatedTaskSchema);
    const usage = estimateDsxUsage(submission);
    return {
      kind: 'task',
      handle: created.id,
      usage,
      ...(submission.profile.succeededStatus === undefined ? {} : { succeededStatus: submission.profile.succeededStatus }),
      details: dsxTaskDetails(submission),
    };
  };
