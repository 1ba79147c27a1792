import type { Usage } from '../../core/index.js';
import type { SrRequestPlan } from './read-sr-request.js';
import { srUsage } from './sr-usage.js';

/**
 * The quota to reserve for a checked submission: its `seconds` (default 4) at its size's
 * resolution (`720p` for both sr-2 sizes). A remix is estimated from the `seconds` and
 * `size` it names (default 4 s, 720p); what the upstream reports for the new video is what
 * is charged.
 */
export function estimateSrUsage(plan: SrRequestPlan): Usage {
  return srUsage(plan.seconds, plan.size, 'estimated');
}
