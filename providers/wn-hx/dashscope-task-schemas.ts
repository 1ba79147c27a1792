import { z } from 'zod';

// Lenient on purpose: DashScope's task bodies vary by model (upstreams.md §4.1: usage numbers
// may come as strings, durations as floats), and only these fields are read.
const numberLike = z.union([z.number(), z.string()]).nullish();

/** The submit answer `{output: {task_status, task_id}, request_id}`, or an error body sent with HTTP 200. */
export const dashScopeSubmitAnswerSchema = z.looseObject({
  output: z.looseObject({ task_id: z.string().nullish(), task_status: z.string().nullish() }).nullish(),
  code: z.string().nullish(),
  message: z.string().nullish(),
});

/** A task answer of `GET /api/v1/tasks/{task_id}` (fixture dashscope-video-task-lifecycle.json). */
export const dashScopeTaskAnswerSchema = z.looseObject({
  output: z
    .looseObject({
      task_id: z.string().nullish(),
      task_status: z.string().nullish(),
      video_url: z.string().nullish(),
      code: z.string().nullish(),
      message: z.string().nullish(),
    })
    .nullish(),
  usage: z.looseObject({ duration: numberLike, SR: numberLike, video_count: numberLike }).nullish(),
  code: z.string().nullish(),
  message: z.string().nullish(),
});

export type DashScopeTaskAnswer = z.output<typeof dashScopeTaskAnswerSchema>;
