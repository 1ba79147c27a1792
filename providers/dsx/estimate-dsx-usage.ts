import { videoUsage, type Usage } from '../../core/index.js';
import { dsxFramesPerSecond } from './check-dsx-markers.js';
import type { DsxSubmission } from './dsx-submission.js';

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
 * `per_second` and `resolution_multipliers` keyed `480p` / `720p` / `1080p`) and the
 * completion tokens Ark will report (priced by `output_per_mtok`). A model's price uses
 * one or the other; both would be summed.
 */
export function estimateDsxUsage(submission: DsxSubmission): Usage {
  const outputTokens = estimateDsxTokens(submission.resolution, submission.seconds, submission.frames);
  return { ...videoUsage(submission.seconds, submission.resolution, 'estimated'), outputTokens, outputModalities: { video: outputTokens } };
}
