import type { Usage, VideoSubmitRequest } from '../../core/index.js';
import { readSrRequest } from './read-sr-request.js';
import { srUsage } from './sr-usage.js';

/**
 * The quota to reserve for a submission: its `seconds` (default 4) at its size's resolution
 * (`720p` for both sr-2 sizes). Runs before quota is touched and refuses a bad request
 * (see {@link readSrRequest}), so invalid input costs nothing and never reaches the upstream.
 * A remix is estimated from the `seconds` and `size` it names (default 4 s, 720p); what the
 * upstream reports for the new video is what is charged.
 */
export function estimateSrUsage(request: VideoSubmitRequest): Usage {
  const plan = readSrRequest(request);
  return srUsage(plan.seconds, plan.size, 'estimated');
}
