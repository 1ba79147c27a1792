import { Readable, finished } from 'node:stream';
import type { BytesResult, StreamResult } from '../../contracts/provider/operation-results.js';
import { SseSplitter } from '../../streaming/sse-splitter.js';
import { StreamPump, type StreamOutcome } from '../../streaming/stream-pump.js';
import type { ChannelAttempt } from '../channel-attempt.js';
import type { PipelineServices } from '../pipeline-services.js';
import type { RequestContext } from '../request-context.js';

/**
 * Stream: reads the upstream's stream until its first content, before anything is sent, so a
 * failure there can still fail over. Resolves with the primed pump, or with the failure (the
 * pump abandoned, its upstream aborted), and the content type the client's encoder writes. The pump reports how the stream ended to `ended`.
 */
export async function primeStream(
  context: RequestContext,
  services: PipelineServices,
  attempt: ChannelAttempt,
  result: StreamResult,
  ended: (outcome: StreamOutcome) => void,
): Promise<{ kind: 'primed'; pump: StreamPump; contentType: string } | { kind: 'failed'; failure: unknown }> {
  const { invocation } = context;
  const { encoder } = invocation;
  if (encoder === undefined) throw new Error('a streamed operation needs an encoder');
  const pump = new StreamPump({
    body: result.body,
    splitter: new SseSplitter({ maxEventBytes: services.config.streaming.max_event_bytes }),
    decoder: result.decoder,
    encoder,
    keepaliveMilliseconds: services.config.streaming.keepalive_ms,
    upstreamAbort: attempt.upstreamAbort,
    clientSignal: invocation.clientSignal,
    onFinish: ended,
  });
  try {
    const primed = await pump.prime();
    if (primed.kind !== 'error') return { kind: 'primed', pump, contentType: encoder.contentType };
    pump.abandon();
    return { kind: 'failed', failure: primed.error };
  } catch (error) {
    pump.abandon();
    return { kind: 'failed', failure: error };
  }
}

/**
 * Bytes: passes raw bytes through as they arrive (speech). Their usage is known up front;
 * `ended` hears when the body is over, however it ends: the upstream has done the work even
 * when the client leaves early.
 */
export function relayBytes(result: BytesResult, ended: () => void): Readable {
  const readable = Readable.from(result.body, { objectMode: false });
  finished(readable, ended);
  return readable;
}
