import { blockedBodies } from './dashscope-error-body.js';
import { jsonAnswer, type DashScopeRoute } from './dashscope-wire.js';
import { checkVideoSynthesisRequest } from './video-synthesis-request.js';

/** The async video path (upstreams.md §4.2). */
export const videoSynthesisPath = '/api/v1/services/aigc/video-generation/video-synthesis';

/**
 * `POST /api/v1/services/aigc/video-generation/video-synthesis`: checks the request like
 * DashScope (the `X-DashScope-Async: enable` header first), then accepts a task and answers
 * `{output: {task_status: "PENDING", task_id}, request_id}` (fixture `create_response`). The
 * behaviour's `taskSteps` / `taskEnd` / `taskFailure` / `usage` go with the task; `blocked`
 * refuses the input with HTTP 400 instead, as moderation of the prompt or media does.
 */
export const videoSynthesisRoute: DashScopeRoute = ({ request: recorded, behaviour, tasks }) => {
  if (behaviour.json !== undefined) return jsonAnswer(200, behaviour.json);
  const check = checkVideoSynthesisRequest(recorded);
  if ('error' in check) return jsonAnswer(check.status, check.error);
  if (behaviour.blocked !== undefined) return jsonAnswer(400, blockedBodies[behaviour.blocked === true ? 'input' : behaviour.blocked]());
  return jsonAnswer(200, tasks.create(check.request, behaviour));
};
