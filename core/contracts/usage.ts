/** Token counts by modality. */
export interface ModalityTokens {
  text?: number;
  audio?: number;
  image?: number;
  video?: number;
}

/**
 * What one request used, in one structure for every operation. Billing reads it; `source`
 * says whether the upstream reported it or the gateway estimated it, so billing never
 * guesses silently.
 */
export interface Usage {
  /** Prompt tokens, cached ones included. */
  inputTokens: number;
  /** The part of `inputTokens` served from the upstream's cache. */
  cachedInputTokens: number;
  /** Completion tokens, reasoning included. */
  outputTokens: number;
  /** The part of `outputTokens` spent on reasoning. */
  reasoningTokens: number;
  inputModalities?: ModalityTokens;
  outputModalities?: ModalityTokens;
  /** Images produced. */
  images?: number;
  /** Seconds of media produced. */
  seconds?: number;
  /** The output resolution (`720p`, `1080p`…), which selects a price's `resolution_multipliers` entry for `per_second`. */
  resolution?: string;
  /** Characters of input (speech synthesis). */
  characters?: number;
  /** Minutes of audio consumed (transcription). */
  minutes?: number;
  /** Where the numbers came from. */
  source: 'upstream' | 'estimated';
}

/** A usage with every count at zero. */
export function emptyUsage(source: Usage['source'] = 'upstream'): Usage {
  return { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0, source };
}

/** The usage of video: `seconds` of it at `resolution` (the `resolution_multipliers` key, such as `720p`), no tokens. */
export function videoUsage(seconds: number, resolution: string | undefined, source: Usage['source']): Usage {
  return { ...emptyUsage(source), seconds, resolution };
}

/** An upstream's token count as a whole number of at least 0: 0 for a count that is missing, negative or not a number. */
export const tokenCount = (value: number | null | undefined): number => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0);
