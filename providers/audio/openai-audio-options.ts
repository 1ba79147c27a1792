import { z } from 'zod';
import { pathPrefixOption } from '../../core/index.js';

/** An openai-audio channel's `options`. */
export const openAiAudioOptionsSchema = z.strictObject({
  /** The path between the channel's `base_url` and `/audio/speech`. */
  path_prefix: pathPrefixOption('/v1'),
});

export type OpenAiAudioOptions = z.output<typeof openAiAudioOptionsSchema>;
