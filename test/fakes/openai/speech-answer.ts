import type { SpeechUsage } from './openai-behaviour.js';
import { invalidTypeBody, invalidValueBody, missingParameterBody, openAiErrorBody } from './openai-error-body.js';
import { isObject, jsonAnswer, openAiHeaders, streamAnswer, type OpenAiRoute } from './openai-wire.js';
import { speechAudio, speechContentTypes, speechSeconds, type SpeechFormat } from './speech-audio.js';

const voices = ['alloy', 'ash', 'ballad', 'coral', 'echo', 'fable', 'onyx', 'nova', 'sage', 'shimmer', 'verse', 'marin', 'cedar'];
const formats = Object.keys(speechContentTypes) as SpeechFormat[];
const longestInput = 4096;
/** Audio goes out in pieces of this size, so that a client sees a chunked stream. */
const pieceBytes = 4096;

const listed = (values: string[]) => `${values.slice(0, -1).map((value) => `'${value}'`).join(', ')}, and '${values.at(-1)}'`;

/**
 * `POST /v1/audio/speech` as upstreams.md §2.5 describes it: the audio bytes in several
 * chunks without a length, typed by `response_format`; with `stream_format: "sse"`, the same
 * bytes as base64 `speech.audio.delta` events and a closing `speech.audio.done` with usage.
 * See {@link speechAudio} for the bytes; an `audio` behaviour replaces them.
 */
export const speechRoute: OpenAiRoute = ({ request, behaviour, started }) => {
  const body = request.json;
  if (!isObject(body)) return jsonAnswer(400, openAiErrorBody(400, 'We could not parse the JSON body of your request.'), started);
  const refusal = invalidSpeechRequest(body);
  if (refusal !== undefined) return jsonAnswer(400, refusal, started);

  const input = body.input as string;
  const format = (body.response_format ?? 'mp3') as SpeechFormat;
  const seconds = speechSeconds(input, typeof body.speed === 'number' ? body.speed : 1);
  const audio = behaviour.audio ?? speechAudio(format, seconds);
  const pieces = Array.isArray(audio) ? audio : splitBytes(audio);

  if (body.stream_format === 'sse') {
    const inputTokens = Math.max(1, Math.ceil(input.length / 4));
    const outputTokens = Math.max(1, Math.ceil(seconds * 20));
    const usage = (behaviour.usage as SpeechUsage | undefined) ?? { input_tokens: inputTokens, output_tokens: outputTokens, total_tokens: inputTokens + outputTokens };
    const event = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;
    const deltas = pieces.map((piece) => event({ type: 'speech.audio.delta', audio: Buffer.from(piece).toString('base64') }));
    return streamAnswer([...deltas, event({ type: 'speech.audio.done', usage })], started);
  }
  return { status: 200, headers: openAiHeaders(speechContentTypes[format], started), pieces, streamed: true };
};

function invalidSpeechRequest(body: Record<string, unknown>): unknown {
  if (body.model === undefined) return missingParameterBody('model');
  if (typeof body.model !== 'string') return invalidTypeBody('model', 'a string', body.model);
  if (body.input === undefined || body.input === '') return missingParameterBody('input');
  if (typeof body.input !== 'string') return invalidTypeBody('input', 'a string', body.input);
  if (body.input.length > longestInput) {
    return openAiErrorBody(400, `Invalid 'input': string too long. Expected a string with maximum length ${longestInput}, but got a string with length ${body.input.length} instead.`, 'input', 'string_above_max_length');
  }
  if (body.voice === undefined) return missingParameterBody('voice');
  if (typeof body.voice === 'string' && !voices.includes(body.voice)) {
    return invalidValueBody('voice', `Invalid value: '${body.voice}'. Supported values are: ${listed(voices)}.`);
  }
  if (typeof body.voice !== 'string' && !isObject(body.voice)) return invalidTypeBody('voice', 'a string or a voice object', body.voice);
  const format = body.response_format;
  if (format !== undefined && !(typeof format === 'string' && (formats as string[]).includes(format))) {
    return invalidValueBody('response_format', `Invalid value: '${String(format)}'. Supported values are: ${listed(formats)}.`);
  }
  const speed = body.speed;
  if (speed !== undefined) {
    if (typeof speed !== 'number') return invalidTypeBody('speed', 'a decimal', speed);
    if (speed < 0.25) return openAiErrorBody(400, `Invalid 'speed': decimal below minimum value. Expected a value >= 0.25, but got ${speed} instead.`, 'speed', 'decimal_below_min_value');
    if (speed > 4) return openAiErrorBody(400, `Invalid 'speed': decimal above maximum value. Expected a value <= 4, but got ${speed} instead.`, 'speed', 'decimal_above_max_value');
  }
  const streamFormat = body.stream_format;
  if (streamFormat !== undefined && streamFormat !== 'audio' && streamFormat !== 'sse') {
    return invalidValueBody('stream_format', `Invalid value: '${String(streamFormat)}'. Supported values are: 'sse' and 'audio'.`);
  }
  // tts-1 and tts-1-hd predate streamed events (upstreams.md §2.5).
  if (streamFormat === 'sse' && body.model.startsWith('tts-1')) {
    return openAiErrorBody(400, `stream_format 'sse' is not supported for model '${body.model}'.`, 'stream_format', 'unsupported_value');
  }
  return undefined;
}

/** At least two pieces when there are two bytes, so the answer really is written in chunks. */
function splitBytes(bytes: Uint8Array): Uint8Array[] {
  const size = Math.min(pieceBytes, Math.max(1, Math.ceil(bytes.length / 2)));
  const pieces: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.length; offset += size) pieces.push(bytes.subarray(offset, offset + size));
  return pieces;
}
