import type { ChatCompletionRequest } from '../../../core/index.js';
import { cleanGxSchema } from './clean-gx-schema.js';

/** The upstream takes at most this many stop sequences (spec part 1, "Limits"). */
export const maximumStopSequences = 5;

/**
 * `audio` as the native `speechConfig`. The object is passed through (spec part 1); the
 * OpenAI-style `voice` name becomes `voiceConfig.prebuiltVoiceConfig.voiceName` (an explicit
 * `voiceConfig` wins), and `format` is left out: the upstream has no such field (its
 * audio is always PCM) and answers 400 to unknown ones.
 */
function toSpeechConfig(audio: Record<string, unknown>): Record<string, unknown> {
  const { voice, format: _format, ...speechConfig } = audio;
  if (typeof voice === 'string') {
    speechConfig.voiceConfig ??= { prebuiltVoiceConfig: { voiceName: voice } };
  } else if (voice !== undefined) {
    speechConfig.voice = voice;
  }
  return speechConfig;
}

/**
 * The native `generationConfig` for a chat request, every field the spec's mapping table
 * names; fields the client left out stay out, so the upstream's defaults apply. Thinking is
 * added by the caller.
 */
export function toGxGenerationConfig(request: ChatCompletionRequest): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  const copy = (name: string, value: unknown) => {
    if (value !== undefined && value !== null) config[name] = value;
  };
  copy('temperature', request.temperature);
  copy('topP', request.top_p);
  copy('topK', request.top_k);
  copy('seed', request.seed);
  copy('maxOutputTokens', request.max_completion_tokens ?? request.max_tokens);
  if (request.stop !== undefined && request.stop !== null) {
    const stops = (typeof request.stop === 'string' ? [request.stop] : request.stop).slice(0, maximumStopSequences);
    if (stops.length > 0) config.stopSequences = stops;
  }
  copy('frequencyPenalty', request.frequency_penalty);
  copy('presencePenalty', request.presence_penalty);
  if (typeof request.n === 'number' && request.n > 1) config.candidateCount = request.n;
  copy('responseLogprobs', request.logprobs);
  copy('logprobs', request.top_logprobs);
  if (request.modalities !== undefined && request.modalities !== null && request.modalities.length > 0) {
    config.responseModalities = request.modalities.map((modality) => modality.toUpperCase());
  }
  if (request.audio !== undefined && request.audio !== null) config.speechConfig = toSpeechConfig(request.audio);

  const format = request.response_format;
  if (format?.type === 'json_object' || format?.type === 'json_schema') {
    config.responseMimeType = 'application/json';
    const schema = format.type === 'json_schema' ? format.json_schema?.schema : undefined;
    if (schema !== undefined) config.responseSchema = cleanGxSchema(schema);
  }
  return config;
}
