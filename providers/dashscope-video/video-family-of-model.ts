import { invalidRequest, quoted } from '../../core/index.js';
import type { DashScopeVideoFamily } from './dashscope-video-family.js';
import { hxFamily } from './hx-family.js';
import { wnFamily } from './wn-family.js';

/** Every family the dashscope-video plugin serves. */
export const dashScopeVideoFamilies: readonly DashScopeVideoFamily[] = [wnFamily, hxFamily];

/**
 * The family of a client model id: the one whose name the id starts with (`wn2.7-r2v` → wn,
 * `hx-1.0-t2v` → hx). The id the client sent decides, not the upstream's after `model_map`,
 * so the rules follow the spec's ids whatever a channel sends upstream. An id of no family
 * is a 400 naming `model`; an id of a family without rules is refused by the family.
 */
export function videoFamilyOf(model: string): DashScopeVideoFamily {
  const family = dashScopeVideoFamilies.find((candidate) => model.startsWith(candidate.name));
  if (family === undefined) {
    const names = dashScopeVideoFamilies.map((candidate) => candidate.name).join(' or ');
    throw invalidRequest(`model: ${quoted(model)} is not a dashscope-video model; the dashscope-video plugin serves model ids starting with ${names}`, { param: 'model' });
  }
  return family;
}
