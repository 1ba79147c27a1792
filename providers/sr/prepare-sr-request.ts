import { OncePerRequest, type UploadFile, type VideoSubmitRequest } from '../../core/index.js';
import { readSrRequest, type SrRequestPlan } from './read-sr-request.js';

/**
 * A submission as the plugin prepares it: checked (see {@link readSrRequest}), with a slot
 * for its reference image, which the first channel's handler fetches and a failover reuses.
 */
export interface PreparedSrRequest extends SrRequestPlan {
  referenceFile: OncePerRequest<UploadFile>;
}

/**
 * The plugin's `prepare` of `video.submit`: runs once per submission, before any quota is touched.
 * @throws GatewayError 400 `invalid_request` naming the field, as {@link readSrRequest}.
 */
export function prepareSrRequest(request: VideoSubmitRequest): PreparedSrRequest {
  return { ...readSrRequest(request), referenceFile: new OncePerRequest() };
}
