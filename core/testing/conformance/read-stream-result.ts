import type { StreamResult } from '../../contracts/provider/operation-results.js';
import type { SseFrame, StreamOutput } from '../../contracts/stream-decoder.js';
import { SseSplitter } from '../../streaming/sse-splitter.js';
import { describeThrown } from './conformance-report.js';

/** What a stream result's decoder made of its upstream body, frame by frame, as the gateway's stream loop would feed it. */
export interface DecodedStream {
  frames: SseFrame[];
  /** The outputs of each `push`, then of `end` as the last entry. */
  outputs: StreamOutput[][];
  /** A decoder that threw (the gateway would answer its client with an internal error): where and what. */
  thrown?: string;
}

/** Reads the whole upstream body of a stream result and splits it into SSE frames. */
export async function readFrames(result: StreamResult): Promise<SseFrame[]> {
  const splitter = new SseSplitter();
  const frames: SseFrame[] = [];
  for await (const chunk of result.body) frames.push(...splitter.push(chunk));
  frames.push(...splitter.end());
  return frames;
}

/** Feeds `frames` to the result's decoder (the first `count` of them, when given), then ends it. */
export function decodeFrames(result: StreamResult, frames: readonly SseFrame[], count = frames.length): DecodedStream {
  const outputs: StreamOutput[][] = [];
  for (const [index, frame] of frames.slice(0, count).entries()) {
    try {
      outputs.push(result.decoder.push(frame));
    } catch (error) {
      return { frames: [...frames], outputs, thrown: `push() of frame ${index} threw ${describeThrown(error)}` };
    }
  }
  try {
    outputs.push(result.decoder.end());
  } catch (error) {
    return { frames: [...frames], outputs, thrown: `end() threw ${describeThrown(error)}` };
  }
  return { frames: [...frames], outputs };
}

/**
 * What is wrong with the order of a decoded stream that should be whole, or undefined: every
 * `push` and `end` answered an array of known outputs, model output came before the end, no
 * error was reported, and nothing came after an error.
 */
export function streamOrderProblem(decoded: DecodedStream): string | undefined {
  if (decoded.thrown !== undefined) return `the decoder ${decoded.thrown}; a decoder reports what the upstream sent wrong as an { type: 'error' } output`;
  const flat: StreamOutput[] = [];
  for (const [index, outputs] of decoded.outputs.entries()) {
    if (!Array.isArray(outputs)) return `${index === decoded.outputs.length - 1 ? 'end()' : `push() of frame ${index}`} answered ${typeof outputs}, not an array of outputs (a decoder is synchronous)`;
    flat.push(...outputs);
  }
  const unknown = flat.find((output) => !['event', 'usage', 'error', 'affinity'].includes((output as { type?: unknown }).type as string));
  if (unknown !== undefined) return `an output of unknown type: ${JSON.stringify(unknown)}`;
  const badEvent = flat.find((output) => output.type === 'event' && (typeof output.data !== 'string' || typeof output.content !== 'boolean'));
  if (badEvent !== undefined) return `an event needs data as text and content as a boolean: ${JSON.stringify(badEvent)}`;
  const error = flat.findIndex((output) => output.type === 'error');
  if (error !== -1) {
    const failure = flat[error] as Extract<StreamOutput, { type: 'error' }>;
    return `the recorded stream decoded to an error at output ${error}: ${describeThrown(failure.error)}`;
  }
  if (!flat.some((output) => output.type === 'event' && output.content)) return 'no event carried model output (content: true), so the gateway could never commit the stream to this channel';
  return undefined;
}

/** Whether a stream's outputs report a failure. */
export const reportsError = (outputs: readonly StreamOutput[][]): boolean => outputs.some((batch) => Array.isArray(batch) && batch.some((output) => output.type === 'error'));

/** The index of the first frame whose outputs carry model output. */
export const firstContentFrame = (decoded: DecodedStream): number =>
  decoded.outputs.findIndex((outputs, index) => index < decoded.frames.length && Array.isArray(outputs) && outputs.some((output) => output.type === 'event' && output.content));
