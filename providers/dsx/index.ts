import { defineProvider } from '../../core/index.js';
import { createDsxAssetOperations } from './dsx-asset-operations.js';
import { dsxOptionsSchema, type DsxOptions } from './dsx-options.js';
import { createDsxContentOperation, createDsxModerationOperation, createDsxStatusOperation } from './dsx-task-operations.js';
import { estimateDsxUsage } from './estimate-dsx-usage.js';
import { prepareDsxSubmission, type PreparedDsxSubmission } from './prepare-dsx-submission.js';
import { createDsxSubmitOperation } from './submit-dsx-task.js';

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
    operations: {
      'video.submit': createDsxSubmitOperation(host),
      'video.status': createDsxStatusOperation(host),
      'video.content': createDsxContentOperation(host),
      'video.moderation': createDsxModerationOperation(host),
      ...(options.assets === undefined ? {} : createDsxAssetOperations(host)),
    },
  }),
});
