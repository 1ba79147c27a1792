import type { FakeVideo } from './videos-store.js';

/**
 * A video as the API shows it (`VideoResource`, upstreams.md §2.9), every key present in the
 * order of the fixture's schema-complete objects (openai-videos-objects.json).
 */
export function videoObject(video: FakeVideo): Record<string, unknown> {
  return {
    id: video.id,
    object: 'video',
    model: video.model,
    status: video.status,
    progress: video.progress,
    created_at: video.createdAt,
    completed_at: video.completedAt,
    expires_at: video.expiresAt,
    prompt: video.prompt,
    size: video.size,
    seconds: video.seconds,
    remixed_from_video_id: video.remixedFromVideoId,
    error: video.error,
  };
}
