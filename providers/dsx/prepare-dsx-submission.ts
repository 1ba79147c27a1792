import { findUrlFields, type VendorFetchedUrl, type VideoSubmitRequest } from '../../core/index.js';
import type { DsxSubmission } from './dsx-submission.js';
import { readDsxSubmission } from './read-dsx-submission.js';

// The client's fields that hold a URL Ark fetches or calls: the first frame `image`, the
// `{image,video,audio}_url.url` of content items, and `metadata.callback_url`.
const mediaUrlKeys = new Set(['image', 'image_url', 'video_url', 'audio_url', 'callback_url']);

/** A submission as the plugin prepares it: checked, and the URLs Ark will fetch or call. */
export interface PreparedDsxSubmission {
  submission: DsxSubmission;
  /** Checked against the gateway's address policy before the create. */
  vendorFetchedUrls: VendorFetchedUrl[];
  /**
   * The client's request, read again only on a channel with the asset API when the
   * submission names `asset://` references: the kinds that channel's assets have retype them.
   */
  request: VideoSubmitRequest;
}

/**
 * The plugin's `prepare` of `video.submit`: the submission checked by its model's form
 * (see {@link readDsxSubmission}), once, before any quota is touched.
 * @throws GatewayError 400 `invalid_request` naming the first wrong field.
 */
export function prepareDsxSubmission(request: VideoSubmitRequest): PreparedDsxSubmission {
  return { submission: readDsxSubmission(request), vendorFetchedUrls: findUrlFields(request, (key) => mediaUrlKeys.has(key)), request };
}
