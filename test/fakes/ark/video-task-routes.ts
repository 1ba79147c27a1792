import type { ArkBehaviour } from './ark-behaviour.js';
import { arkErrorBody, arkSensitiveErrors } from './ark-error-body.js';
import { arkJsonAnswer, type ArkRoute } from './ark-wire.js';
import type { ArkVideoTasks } from './video-tasks.js';
import { checkVideoTaskRequest, isVideoTaskRefusal, type VideoTaskPlan, type VideoTaskRefusal } from './video-task-request-check.js';

/** Checks the `asset://` references of a create against the fake's asset library; undefined when they are fine. */
export type ArkAssetCheck = (plan: VideoTaskPlan, requestId: string) => VideoTaskRefusal | undefined;

/** The path of the task routes, under the runtime prefix (upstreams.md §3.3). */
export const videoTasksPath = '/contents/generations/tasks';

/**
 * `POST /api/v3/contents/generations/tasks` (upstreams.md §3.3): checks the body loosely,
 * answers `{"id": "cgt-..."}` and keeps the task, whose lifecycle the create's behaviour
 * sets (`taskOutcome`). `blocked: 'input_text' | 'input_image'` refuses it with the safety
 * filter's 400; `json` replaces the answer.
 */
export function createVideoTaskRoute(tasks: ArkVideoTasks, models: readonly string[] | undefined, checkAssets?: ArkAssetCheck): ArkRoute {
  return (exchange) => {
    const { behaviour, requestId } = exchange;
    const plan = checkVideoTaskRequest(exchange.request.json, requestId, models);
    if (isVideoTaskRefusal(plan)) return arkJsonAnswer(plan.status, plan.body, requestId);
    const refusal = checkAssets?.(plan, requestId);
    if (refusal !== undefined) return arkJsonAnswer(refusal.status, refusal.body, requestId);
    if (behaviour.blocked !== undefined) return arkJsonAnswer(400, blockedBody(behaviour, requestId), requestId);
    if (behaviour.json !== undefined) return arkJsonAnswer(200, behaviour.json, requestId);
    const task = tasks.create(plan, behaviour, exchange.origin, exchange.images);
    return arkJsonAnswer(200, { id: task.id }, requestId);
  };
}

function blockedBody(behaviour: ArkBehaviour, requestId: string) {
  const sensitive = arkSensitiveErrors[behaviour.blocked!];
  return arkErrorBody(400, { code: sensitive.code, message: sensitive.message, param: behaviour.param, requestId });
}

/**
 * `GET /api/v3/contents/generations/tasks/{id}`: the task object as it is now (fixture
 * ark-seedance-task-succeeded.json's keys), then one step on: queued → running → the end
 * its create chose. An unknown or forgotten task is a 404. `json` replaces the answer.
 */
export function getVideoTaskRoute(tasks: ArkVideoTasks): ArkRoute {
  return (exchange) => {
    const { requestId } = exchange;
    const id = exchange.params[0] ?? '';
    const task = tasks.poll(id);
    if (exchange.behaviour.json !== undefined) return arkJsonAnswer(200, exchange.behaviour.json, requestId);
    if (task === undefined) {
      // Ark's body for an unknown task is not recorded in upstreams.md; this one follows §3.1's shape [L].
      return arkJsonAnswer(404, arkErrorBody(404, { code: 'ResourceNotFound', message: `The specified task ${id} is not found.`, requestId }), requestId);
    }
    return arkJsonAnswer(200, task, requestId);
  };
}
