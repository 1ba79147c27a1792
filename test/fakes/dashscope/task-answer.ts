import { jsonAnswer, type DashScopeRoute } from './dashscope-wire.js';

/** The task query path of a task id (upstreams.md §4.1). */
export const taskPath = (taskId: string) => `/api/v1/tasks/${taskId}`;

/**
 * `GET /api/v1/tasks/{task_id}`: the task's next state, one step per poll (see
 * `VideoTasks.poll`); the video URL of a SUCCEEDED answer points back at the fake. A
 * behaviour's `json` replaces the answer without moving the task on.
 */
export const taskRoute: DashScopeRoute = ({ behaviour, origin, tasks, captures }) => {
  if (behaviour.json !== undefined) return jsonAnswer(200, behaviour.json);
  return jsonAnswer(200, tasks.poll(decodeURIComponent(captures[0] ?? ''), origin));
};
