import { z } from 'zod';

/** An openai-audio channel's `options`. */
export const openAiAudioOptionsSchema = z.strictObject({
  /** The path between the channel's `base_url` and `/audio/speech`. */
  path_prefix: z
    .string()
    .regex(/^(\/[A-Za-z0-9._~-]+)*$/, { error: 'expected a path such as /v1, starting with a slash and without a trailing one' })
    .default('/v1'),
});

export type OpenAiAudioOptions = z.output<typeof openAiAudioOptionsSchema>;
