import { videoUsage, type Usage, type VendorFetchedUrl, type VideoSubmitRequest } from '../../core/index.js';
import { findUrlFields } from '../../core/kit/index.js';
import type { DsxMediaKind } from './check-dsx-media-url.js';
import { dsxModelProfile } from './dsx-model-profiles.js';
import type { DsxSubmission } from './dsx-request-schema.js';
import { dsxFramesPerSecond } from './dsx-text-markers.js';
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

/** A submission as the plugin prepares it: checked, and the URLs Ark will fetch or call. */
export interface PreparedDsxSubmission {
  submission: DsxSubmission;
  /** Checked against the gateway's address policy before the create. */
  vendorFetchedUrls: VendorFetchedUrl[];
  /** The client's request, read again on a channel with the asset API to retype `asset://` references by their kinds. */
  request: VideoSubmitRequest;
}

// The client's fields that hold a URL Ark fetches or calls: the first frame `image`, the
// `{image,video,audio}_url.url` of content items, and `metadata.callback_url`.
const mediaUrlKeys = new Set(['image', 'image_url', 'video_url', 'audio_url', 'callback_url']);

/**
 * The plugin's `prepare` of `video.submit`: the submission checked by its model's form, once,
 * before any quota is touched.
 * @throws GatewayError 400 `invalid_request` naming the first wrong field.
 */
export function prepareDsxSubmission(request: VideoSubmitRequest): PreparedDsxSubmission {
  return { submission: readDsxSubmission(request), vendorFetchedUrls: findUrlFields(request, (key) => mediaUrlKeys.has(key)), request };
}

/** The body of `POST /contents/generations/tasks` (upstreams.md §3.3): model, content, then the top-level fields. */
export function toDsxTaskRequest(submission: DsxSubmission, upstreamModel: string): Record<string, unknown> {
  return { model: upstreamModel, content: submission.content, ...submission.fields };
}

// Pixels of a 16:9 frame per resolution; Seedance keeps about the same area at every ratio.
const pixels: Record<string, number> = { '480p': 864 * 480, '720p': 1280 * 720, '1080p': 1920 * 1080 };

/**
 * Ark's token count for a video: width × height × frames / 1024, with frames = seconds ×
 * 24 + 1 unless `--frames` set them. Fixture ark-seedance-task-succeeded.json: 720p 16:9
 * for 5 s is 1280 × 720 × 121 / 1024 = 108900 completion tokens (upstreams.md §3.4 gives
 * the same formula without the extra frame [L]).
 */
export function estimateDsxTokens(resolution: string, seconds: number, frames?: number): number {
  const frameCount = frames ?? Math.round(seconds * dsxFramesPerSecond) + 1;
  return Math.ceil(((pixels[resolution] ?? pixels['720p']!) * frameCount) / 1024);
}

/**
 * What a submission costs if it succeeds: its seconds at its resolution (priced by
 * `per_second` and `resolution_multipliers`) and the completion tokens Ark will report
 * (priced by `output_per_mtok`). A model's price uses one or the other; both would be summed.
 */
export function estimateDsxUsage(submission: DsxSubmission): Usage {
  const outputTokens = estimateDsxTokens(submission.resolution, submission.seconds, submission.frames);
  return { ...videoUsage(submission.seconds, submission.resolution, 'estimated'), outputTokens, outputModalities: { video: outputTokens } };
}
