import { shownTaskError, type TaskRecord } from '../../core/tasks/task-record.js';

const openAiStatuses = { queued: 'queued', in_progress: 'in_progress', succeeded: 'completed', failed: 'failed' } as const;

/**
 * A task as the OpenAI videos API shows a video (reference/upstreams.md §2.9): `object:
 * "video"`, status `queued | in_progress | completed | failed`, an integer `progress`, and the
 * submission's `seconds` and `size` when the family reported them. The spec leaves these
 * bodies open; this is the shape the official SDK reads.
 */
export function openAiVideoObject(record: TaskRecord): Record<string, unknown> {
  return {
    id: record.id,
    object: 'video',
    model: record.model,
    status: openAiStatuses[record.status],
    progress: record.status === 'succeeded' ? 100 : Math.round(record.progress ?? 0),
    created_at: record.created_at,
    completed_at: record.status === 'succeeded' ? record.updated_at : null,
    expires_at: Math.floor(record.expires_at / 1000),
    ...(record.details?.seconds === undefined ? {} : { seconds: String(record.details.seconds) }),
    ...(record.details?.size === undefined ? {} : { size: String(record.details.size) }),
    ...(record.url === undefined ? {} : { url: record.url }),
    prompt: record.prompt ?? null,
    remixed_from_video_id: record.remixed_from ?? null,
    error: record.error === undefined ? null : openAiVideoError(shownTaskError(record.error)),
  };
}

const openAiVideoError = (error: NonNullable<TaskRecord['error']>) => ({ code: error.type ?? String(error.code), message: error.message });
