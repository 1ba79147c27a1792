import { findUrlFields, type VendorFetchedUrl, type VideoSubmitRequest } from '../../core/index.js';
import type { DashScopeVideoJob } from './dashscope-video-job.js';
import { videoFamilyOf } from './video-family-of-model.js';

// The client's fields that hold a URL DashScope downloads: wn2.5's `image` and `audio_url`,
// the nested families' `metadata.input.audio_url`, `media[].url` and `reference_voice`.
const mediaUrlKeys = new Set(['image', 'audio_url', 'url', 'reference_voice']);

/** A submission as the plugin prepares it: read by its family's rules, and the URLs DashScope will fetch. */
export interface PreparedVideoRequest {
  job: DashScopeVideoJob;
  /** Checked against the gateway's address policy before the submit. */
  vendorFetchedUrls: VendorFetchedUrl[];
}

/**
 * The plugin's `prepare` of `video.submit`: the family of the client's model id reads the
 * request (see `DashScopeVideoFamily.readRequest`), once, before any quota is touched.
 * @throws GatewayError 400 `invalid_request` naming the field (`model` for an id of no family).
 */
export function prepareVideoRequest(request: VideoSubmitRequest): PreparedVideoRequest {
  return { job: videoFamilyOf(request.model).readRequest(request), vendorFetchedUrls: findUrlFields(request, (key) => mediaUrlKeys.has(key)) };
}
