import { defineProvider } from '../../core/index.js';
import { createDsxAssetOperations, dsxAssetOperationNames } from './dsx-asset-operations.js';
import { dsxOptionsSchema, type DsxOptions } from './dsx-options.js';
import { estimateDsxUsage, prepareDsxSubmission, type PreparedDsxSubmission } from './dsx-submission.js';
import { createDsxContentOperation, createDsxModerationOperation, createDsxStatusOperation, createDsxSubmitOperation } from './dsx-video-operations.js';

/** Without `options.assets` the asset routes say what to add, rather than that no channel serves the model. */
const assetsUnavailable = Object.fromEntries(
  dsxAssetOperationNames.map((operation) => [operation, "options.assets (the asset API's base_url, access_key_id and secret_access_key)"]),
);

/**
 * The dsx family: Seedance-style 1.x (`dsx-`) and 2.0 (`sdx-`) video tasks on an Ark-format
 * upstream, and the asset library (`assets.*`) when the channel configures `options.assets`.
 */
export default defineProvider<DsxOptions, { 'video.submit': PreparedDsxSubmission }>({
  apiVersion: 2,
  name: 'dsx',
  options: dsxOptionsSchema,
  prepare: { 'video.submit': prepareDsxSubmission },
  create: (options, host) => ({
    estimate: { 'video.submit': (request) => estimateDsxUsage(request.submission) },
    unavailable: options.assets === undefined ? assetsUnavailable : {},
    operations: {
      'video.submit': createDsxSubmitOperation(host),
      'video.status': createDsxStatusOperation(host),
      'video.content': createDsxContentOperation(host),
      'video.moderation': createDsxModerationOperation(host),
      ...(options.assets === undefined ? {} : createDsxAssetOperations(host)),
    },
  }),
});
