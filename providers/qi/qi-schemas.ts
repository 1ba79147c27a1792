import { z } from 'zod';

// Lenient on purpose: only what the gateway reads is checked. Two response variants exist
// (fixture dashscope-qwen-image-responses.json): the older one reports `usage.width/height`
// and `output.task_metric`, the newer one `usage.size` and token counts, and content items
// that carry `type: "image"`. Both have `output.choices[].message.content[].image`.

const count = z.number().nullish();

/** The `usage` of a multimodal-generation answer, either variant. */
export const qiUsageSchema = z.looseObject({
  image_count: count,
  input_tokens: count,
  output_tokens: count,
  total_tokens: count,
});

export type QiUsage = z.output<typeof qiUsageSchema>;

const contentItemSchema = z.looseObject({ image: z.unknown().optional(), type: z.unknown().optional() });

/** A sync `/services/aigc/multimodal-generation/generation` answer (upstreams.md §4.3), or an error body sent with 200. */
export const qiResponseSchema = z.looseObject({
  output: z
    .looseObject({
      choices: z
        .array(
          z.looseObject({
            finish_reason: z.string().nullish(),
            message: z.looseObject({ content: z.array(contentItemSchema).nullish() }).nullish(),
          }),
        )
        .nullish(),
    })
    .nullish(),
  usage: qiUsageSchema.nullish(),
  request_id: z.string().nullish(),
  code: z.string().nullish(),
  message: z.string().nullish(),
});
