import { Readable, finished } from 'node:stream';
import type { BytesResult, StreamResult } from '../../contracts/provider/operation-results.js';
import { internalError } from '../../errors/error-codes.js';
import { GatewayError } from '../../errors/gateway-error.js';
import { SseSplitter } from '../../streaming/sse-splitter.js';
import { StreamPump, type StreamOutcome, type StreamPumpParts } from '../../streaming/stream-pump.js';
import type { ChannelAttempt } from '../channel-attempt.js';
import type { PipelineServices } from '../pipeline-services.js';
import type { RequestContext } from '../request-context.js';

/** An answer on its way to the client as it arrives, and how its sending ended once it is over. */
export interface RelayedAnswer {
  readable: Readable;
  /** Settles once, when the client's copy is over, however it ended. */
  ended: Promise<StreamOutcome>;
}

/** A stream read up to its first content (or its end), nothing sent yet. */
export interface PrimedStream {
  kind: 'primed';
  pump: StreamPump;
  contentType: string;
  /** The upstream refused: it ended with a content-filter stop and no content. */
  refused: boolean;
}

/**
 * Stream: reads the upstream's stream until its first content, before anything is sent, so a
 * failure there can still fail over. Resolves with the primed pump (its `ended` says how the
 * stream ended, once it has been sent; `refused` when it is a whole refusal, a content-filter
 * stop without content, which may be abandoned for a fallback model), or with the failure (the
 * pump abandoned, its upstream aborted), and the content type the client's encoder writes.
 * `holdBefore` is the pump's (see {@link StreamPumpParts.holdBefore}).
 */
export async function primeStream(
  context: RequestContext,
  services: PipelineServices,
  attempt: ChannelAttempt,
  result: StreamResult,
  holdBefore?: StreamPumpParts['holdBefore'],
): Promise<PrimedStream | { kind: 'failed'; failure: unknown }> {
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
    holdBefore,
  });
  try {
    const primed = await pump.prime();
    if (primed.kind !== 'error') return { kind: 'primed', pump, contentType: encoder.contentType, refused: primed.kind === 'refused' };
    pump.abandon();
    return { kind: 'failed', failure: primed.error };
  } catch (error) {
    pump.abandon();
    return { kind: 'failed', failure: error };
  }
}

/**
 * Bytes: passes raw bytes through as they arrive (speech). `ended` settles when the body is
 * over, however it ends, with the usage known up front: the upstream has done the work even
 * when the client leaves early.
 */
export function relayBytes(result: BytesResult, context: RequestContext): RelayedAnswer {
  const readable = Readable.from(result.body, { objectMode: false });
  const ended = new Promise<StreamOutcome>((resolve) => {
    finished(readable, (error) => {
      // A client that leaves destroys the readable: a premature close, not a failure.
      const aborted = context.invocation.clientSignal.aborted || (error as { code?: unknown } | undefined)?.code === 'ERR_STREAM_PREMATURE_CLOSE';
      const failure = error === undefined || error === null || aborted ? undefined : GatewayError.is(error) ? error : internalError(error);
      resolve({ usage: result.usage, outputCharacters: 0, error: failure, aborted });
    });
  });
  return { readable, ended };
}
