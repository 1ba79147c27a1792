import { OncePerRequest, type ImageRequest, type UploadFile } from '../../core/index.js';
import { readGiRequest, type GiRequestPlan } from './read-gi-request.js';

/** A request's images in hand, ready to go upstream. */
export interface GiImageFiles {
  references: UploadFile[];
  mask?: UploadFile;
}

/**
 * A gi request as the plugin prepares it: checked (see {@link readGiRequest}), with a slot
 * for its images, which the first channel's handler fetches and a failover reuses.
 */
export interface PreparedGiRequest extends GiRequestPlan {
  files: OncePerRequest<GiImageFiles>;
}

/**
 * The plugin's `prepare` of either route: runs once per request, before any quota is touched.
 * @throws GatewayError 400 `invalid_request`, as {@link readGiRequest}.
 */
export function prepareGiRequest(request: ImageRequest, operation: 'generate' | 'edit'): PreparedGiRequest {
  return { ...readGiRequest(request, operation), files: new OncePerRequest() };
}
