import type { DashScopeVideoFamily } from './dashscope-video-family.js';
import { readWnVideoRequest } from './read-wn-video-request.js';
import { requireWnModelKind, wnTiers } from './wn-model-kind.js';

/** The wn family (spec part 2): wn2.5 with flat fields, wn2.7 with the nested body, on Wan's DashScope models. */
export const wnFamily: DashScopeVideoFamily = {
  name: 'wn',
  readRequest: readWnVideoRequest,
  tiersOf: (model) => wnTiers[requireWnModelKind(model).family],
};
