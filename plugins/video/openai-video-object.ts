import { shownTaskError, type TaskRecord } from '../../core/tasks/task-record.js';

const openAiStatuses = { queued: 'queued', in_progress: 'in_progress', succeeded: 'completed', failed: 'failed' } as const;

/**
 * The video's `size`: the pixel size `WIDTHxHEIGHT` when the family works in pixel sizes (sr's
 * `1280x720`; wn's `1280*720` written the OpenAI way), else the resolution tier the family
 * makes it at (`720p`: vo, dsx, hx and wn image-to-video choose a tier and an aspect, and the
 * upstream picks the pixels). Undefined only for a family that reports neither.
 */
function videoSize(details: TaskRecord['details']): string | undefined {
  if (typeof details?.size === 'string') return details.size.replace('*', 'x');
  return typeof details?.resolution === 'string' ? details.resolution.toLowerCase() : undefined;
}

/**
 * A task as the OpenAI videos API shows a video (reference/upstreams.md §2.9): `object:
 * "video"`, status `queued | in_progress | completed | failed`, an integer `progress`, the
 * submission's `seconds` when the family reported them, and its `size` ({@link videoSize}),
 * which OpenAI's description requires on every video. The spec leaves these bodies open;
 * this is the shape the official SDK reads.
 */
export function openAiVideoObject(record: TaskRecord): Record<string, unknown> {
  const size = videoSize(record.details);
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
    ...(size === undefined ? {} : { size }),
    ...(record.url === undefined ? {} : { url: record.url }),
    prompt: record.prompt ?? null,
    remixed_from_video_id: record.remixed_from ?? null,
    error: record.error === undefined ? null : openAiVideoError(shownTaskError(record.error)),
  };
}

const openAiVideoError = (error: NonNullable<TaskRecord['error']>) => ({ code: error.type ?? String(error.code), message: error.message });
