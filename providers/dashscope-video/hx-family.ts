import type { DashScopeVideoFamily } from './dashscope-video-family.js';
import { hxTiers } from './hx-model-mode.js';
import { readHxVideoRequest } from './read-hx-video-request.js';

/** The hx family (spec part 2): the nested body, on HappyHorse's DashScope models (upstreams.md §4.4). */
export const hxFamily: DashScopeVideoFamily = {
  name: 'hx',
  readRequest: readHxVideoRequest,
  tiersOf: () => hxTiers,
};
