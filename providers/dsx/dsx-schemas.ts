import { z } from 'zod';
import { arkErrorDetailSchema } from '../../core/index.js';

// Lenient: only what the gateway reads is checked; every other field is tolerated
// (reference/upstreams.md §3.1, §3.3; fixture ark-seedance-task-succeeded.json).

/** The answer to a create: `{"id": "cgt-..."}` only (upstreams.md §3.3). */
export const dsxCreatedTaskSchema = z.looseObject({ id: z.string().min(1) });

/** A task object of `GET /contents/generations/tasks/{id}`. */
export const dsxTaskSchema = z.looseObject({
  id: z.string().nullish(),
  model: z.string().nullish(),
  status: z.string(),
  content: z
    .looseObject({
      video_url: z.string().nullish(),
      last_frame_url: z.string().nullish(),
    })
    .nullish(),
  usage: z
    .looseObject({
      completion_tokens: z.number().nullish(),
      total_tokens: z.number().nullish(),
    })
    .nullish(),
  error: arkErrorDetailSchema.nullish(),
  resolution: z.string().nullish(),
  duration: z.number().nullish(),
  frames: z.number().nullish(),
  framespersecond: z.number().nullish(),
});

export type DsxTask = z.output<typeof dsxTaskSchema>;
