import { pause, writeFlushed, type FakeExchange } from './fake-server.js';
import type { ScriptedBehaviour } from './scripted-behaviour.js';

/** An answer ready to write: status, headers and the body in the chunks to send it in. */
export interface PiecewiseAnswer {
  status: number;
  headers: Record<string, string>;
  pieces: Array<string | Uint8Array>;
  /** A stream body, which `truncateSse` may cut; a non-stream body carries its length instead. */
  streamed: boolean;
}

/** Longest timer Node accepts; "silent until closed" in practice. */
const forever = 2 ** 31 - 1;

/**
 * Writes an answer chunk by chunk, applying the chunk-level behaviours: delays, a stall,
 * a reset after some chunks, or a last chunk cut in half. Headers go out at once, so a
 * stall after zero chunks is a stream that started and then went quiet.
 */
export async function sendPieces({ request, response, signal }: FakeExchange, answer: PiecewiseAnswer, behaviour: ScriptedBehaviour): Promise<void> {
  const { 'content-length': _length, ...unsized } = answer.headers;
  response.writeHead(answer.status, { ...(behaviour.bodyPieces === undefined ? answer.headers : unsized), ...behaviour.headers });
  response.flushHeaders();
  const pieces = behaviour.bodyPieces ?? answer.pieces;
  for (let index = 0; index <= pieces.length; index += 1) {
    if (signal.aborted) return;
    if (behaviour.resetAfterChunks === index) {
      response.destroy();
      return;
    }
    if (behaviour.stallAfterChunks === index) {
      await pause(behaviour.stallMs ?? forever, signal);
      if (signal.aborted) return;
    }
    const piece = pieces[index];
    if (piece === undefined) break;
    if (index > 0 && behaviour.chunkDelayMs !== undefined) {
      await pause(behaviour.chunkDelayMs, signal);
      if (signal.aborted) return;
    }
    const last = index === pieces.length - 1;
    const data = last && answer.streamed && behaviour.truncateSse === true ? firstHalf(piece) : piece;
    await writeFlushed(response, data);
    // Only what the socket took counts: a write after the client dropped the connection is lost.
    if (!response.destroyed) request.bodyBytesWritten += typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength;
  }
  response.end();
}

function firstHalf(piece: string | Uint8Array): Uint8Array {
  const bytes = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece;
  return bytes.subarray(0, Math.max(1, Math.floor(bytes.length / 2)));
}
