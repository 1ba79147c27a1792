import { absent, isRecord, numberOrAbsent, readWithHandCheck, stringOrAbsent, type SchemaRead } from '../../core/index.js';
import { gpChunkSchema, type GpChunk } from './gp-schemas.js';

const countsOrAbsent = (value: unknown, ...names: string[]): boolean => absent(value) || (isRecord(value) && names.every((name) => numberOrAbsent(value[name])));

function plainUsage(usage: unknown): boolean {
  if (absent(usage)) return true;
  return (
    isRecord(usage) &&
    countsOrAbsent(usage, 'prompt_tokens', 'completion_tokens', 'total_tokens') &&
    countsOrAbsent(usage.prompt_tokens_details, 'cached_tokens', 'audio_tokens') &&
    countsOrAbsent(usage.completion_tokens_details, 'reasoning_tokens', 'audio_tokens')
  );
}

function plainChoice(choice: unknown): boolean {
  if (!isRecord(choice) || !stringOrAbsent(choice.finish_reason)) return false;
  const delta = choice.delta;
  if (absent(delta)) return true;
  return (
    isRecord(delta) &&
    stringOrAbsent(delta.content) &&
    stringOrAbsent(delta.refusal) &&
    stringOrAbsent(delta.reasoning_content) &&
    (absent(delta.tool_calls) || Array.isArray(delta.tool_calls))
  );
}

/** True for a chunk whose choices and usage are each of a shape the schema accepts. */
function plainChunk(json: unknown): json is GpChunk {
  return isRecord(json) && plainUsage(json.usage) && (absent(json.choices) || (Array.isArray(json.choices) && json.choices.every(plainChoice)));
}

/**
 * Reads a `chat.completion.chunk`: a chunk of plain choices and counts, which is every chunk
 * of an ordinary stream, is checked by hand, anything unusual goes through the schema (see
 * `readWithHandCheck`).
 */
export const readGpChunk = (json: unknown): SchemaRead<GpChunk> => readWithHandCheck(json, plainChunk, gpChunkSchema);
