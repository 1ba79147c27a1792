import { z } from 'zod';

// Lenient on purpose: only the fields the gateway reads, each nullable, anything else
// tolerated (the fixture openai-videos-objects.json shows create answers with fewer keys than
// the schema-complete objects, and an extra `quality`).

/** The `error` of a failed video (`VideoResource.error`, upstreams.md §2.9). */
export const srVideoErrorSchema = z.looseObject({
  code: z.union([z.string(), z.number()]).nullish(),
  message: z.string().nullish(),
});

/** A video object (`VideoResource`, upstreams.md §2.9) as the gateway reads it. */
export const srVideoSchema = z.looseObject({
  id: z.string().min(1),
  status: z.string().nullish(),
  progress: z.number().nullish(),
  seconds: z.union([z.string(), z.number()]).nullish(),
  size: z.string().nullish(),
  remixed_from_video_id: z.string().nullish(),
  error: srVideoErrorSchema.nullish(),
});

export type SrVideo = z.output<typeof srVideoSchema>;
