import type { VideoSubmitRequest } from '../../core/index.js';
import type { DsxMediaKind } from './check-dsx-media-url.js';
import { dsxModelProfile } from './dsx-model-profiles.js';
import type { DsxSubmission } from './dsx-submission.js';
import { readDsxLegacyRequest } from './read-dsx-legacy-request.js';
import { readSdxRequest } from './read-sdx-request.js';

/**
 * Checks a submission by its model's form: markers for 1.x, fields for 2.0. Throws a 400
 * naming the first wrong field. `assetKinds` retypes `asset://` references by their assets' kinds (2.0).
 */
export function readDsxSubmission(request: VideoSubmitRequest, assetKinds?: ReadonlyMap<string, DsxMediaKind>): DsxSubmission {
  const profile = dsxModelProfile(request.model);
  return profile.form === 'markers' ? readDsxLegacyRequest(request, profile) : readSdxRequest(request, profile, assetKinds);
}
