import type { TaskProgress, TaskStatus } from './provider/operation-results.js';

/** A task's progress as a provider reports it from one poll: its `status`, and any of the other fields. */
export const taskProgress = (status: TaskStatus, fields: Omit<TaskProgress, 'kind' | 'status'> = {}): TaskProgress => ({ kind: 'task-progress', status, ...fields });

/**
 * A failed task: an HTTP-like `code` (the upstream's, or the status its code name stands
 * for), the message for the client, and the upstream's own code name as `type`.
 */
export const failedTask = (code: number, message: string, type: string): TaskProgress => taskProgress('failed', { error: { code, message, type } });

/** A task the upstream reports finished without anything to deliver: failed, 502 `empty_response`. */
export const emptyTaskResult = (message: string): TaskProgress => failedTask(502, message, 'empty_response');
