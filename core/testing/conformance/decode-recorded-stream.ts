import type { StreamDecoder, StreamOutput } from '../../contracts/stream-decoder.js';
import { SseSplitter } from '../../streaming/sse-splitter.js';

/**
 * A recorded SSE stream as `decoder` outputs it, split into frames as the gateway splits an
 * upstream's bytes, `end()` included: the served stream a translator case translates back.
 */
export function decodeRecordedStream(sse: string, decoder: StreamDecoder): StreamOutput[] {
  const splitter = new SseSplitter();
  const frames = [...splitter.push(new TextEncoder().encode(sse)), ...splitter.end()];
  return [...frames.flatMap((frame) => decoder.push(frame)), ...decoder.end()];
}
