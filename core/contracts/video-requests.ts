import { z } from 'zod';

// Seven families share the video submit route with different payloads (spec part 2: flat
// fields, nested metadata.input / metadata.parameters, metadata.content with text markers),
// so core checks only what every family has; each provider validates its own fields strictly
// and names the wrong one. Unknown fields therefore pass through to the provider.

/** `POST /v1/video/generations` (and `/v1/videos`), the standard format of `video.submit`. */
export const videoSubmitRequestSchema = z.looseObject({
  model: z.string({ error: 'expected a model name' }).min(1, { error: 'must not be empty' }),
  prompt: z.string({ error: 'expected the prompt as a string' }).optional(),
  metadata: z.record(z.string(), z.unknown(), { error: 'expected an object' }).optional(),
});

/** A validated video submission. `uploads` is set, possibly empty, exactly when the client sent multipart/form-data. */
export type VideoSubmitRequest = z.output<typeof videoSubmitRequestSchema> & {
  uploads?: Array<{ field: string; filename: string; mimeType: string; data: Buffer }>;
};

/** What `video.status`, `video.content` and `video.moderation` are asked about: a task the provider accepted earlier. */
export interface VideoTaskQuery {
  /** The opaque handle the provider returned at submit. */
  handle: string;
  /** The model the task was submitted for. */
  model: string;
}
