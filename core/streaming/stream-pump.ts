import type { Readable } from 'node:stream';
import type { UpstreamBody } from '../contracts/provider/upstream-http.js';
import type { SseFrame, StreamDecoder, StreamOutput } from '../contracts/stream-decoder.js';
import type { Usage } from '../contracts/usage.js';
import { internalError } from '../errors/error-codes.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { AbortWatch } from '../http/abort-flag.js';
import type { StreamEncoder } from './stream-encoder.js';
import { WriteThroughReadable } from './write-through-readable.js';

/** Splits upstream bytes into frames; {@link SseSplitter} is the one implementation. */
export interface FrameSplitter {
  /** Appends the frames `chunk` completes to `frames`; a throw (an oversized event) leaves the frames before it there. */
  split(chunk: Uint8Array, frames: SseFrame[]): void;
  end(): SseFrame[];
}

/** A stream being sent to a client that can be ended early with an in-band error. */
export interface InterruptibleStream {
  /** Stops reading the upstream and ends the client's stream with `error` as its last event; resolves once that end is written. */
  interrupt(error: GatewayError): Promise<void>;
}

/** How a pumped stream ended: what the pipeline settles and logs it by. */
export interface StreamOutcome {
  /** The last usage the upstream reported, if any. */
  usage: Usage | undefined;
  /** Characters of model output sent to the client (see `outputCharacters` of an event), for estimating output when no usage came. */
  outputCharacters: number;
  /** Set when the stream failed after it had started. */
  error: GatewayError | undefined;
  /** True when the client went away before the end. */
  aborted: boolean;
}

/**
 * What priming found before anything was sent to the client: content, the upstream's end
 * without content (`refused` when it reported a content-filter stop: a refusal), or an error.
 */
export type PrimeResult = { kind: 'content' } | { kind: 'ended' } | { kind: 'refused' } | { kind: 'error'; error: GatewayError };

/** An event the pump sends to the client, as the decoder gave it. */
export type PumpedEvent = Extract<StreamOutput, { type: 'event' }>;

/**
 * What is written to the client, in order: text, or a wait that the text after it must not
 * pass (see {@link StreamPumpParts.holdBefore}).
 */
type Piece = string | Promise<void>;

/** The parts of one streamed response. */
export interface StreamPumpParts {
  body: UpstreamBody;
  splitter: FrameSplitter;
  decoder: StreamDecoder;
  encoder: StreamEncoder;
  keepaliveMilliseconds: number;
  /** Aborted to stop the upstream request (the client stopped reading, the stream is abandoned or interrupted). */
  upstreamAbort: AbortController;
  /** Aborted when the client has gone away. */
  clientSignal: AbortWatch;
  /**
   * Called for each event as it is decoded; a promise it returns holds that event (and all
   * after it) back from the client until it settles. The pipeline holds a translated
   * Responses stream's terminal event until the conversation it ends is stored, so a
   * follow-up the client sends the moment it reads that event finds it. The promise must
   * not reject: what failed is the hook's to report, and the answer still goes out.
   */
  holdBefore?: (event: PumpedEvent) => Promise<void> | undefined;
}

// Decoders report what an upstream sent wrong as GatewayErrors; anything else thrown is a bug
// of the gateway's, told to the client in generic words (the pipeline logs its stack).
const asGatewayError = (error: unknown): GatewayError => (GatewayError.is(error) ? error : internalError(error));

/**
 * The one read loop of a streamed response. `prime()` reads until the first event that
 * carries content, so an upstream failure before that can still fail over to another
 * channel; `readable()` then hands the client what was held back and everything after,
 * translating each upstream chunk synchronously, honouring backpressure and sending
 * keepalives while the upstream is idle. How the stream ended is {@link ended}: the pump knows
 * nothing of billing, the pipeline awaits it and settles.
 */
export class StreamPump implements InterruptibleStream {
  /**
   * How the client's stream ended, whatever ended it (the upstream's end, an error, the
   * client leaving, an interruption); settles once. A pump abandoned before it was sent
   * never ends: nothing was delivered to settle.
   */
  readonly ended: Promise<StreamOutcome>;
  readonly #parts: StreamPumpParts;
  #reportEnd!: (outcome: StreamOutcome) => void;
  readonly #iterator: AsyncIterator<Uint8Array>;
  readonly #held: Piece[] = [];
  #usage: Usage | undefined;
  #affinityKey: string | undefined;
  #outputCharacters = 0;
  #contentSeen = false;
  /** The decoder reported a content-filter stop (a `content_filter` output). */
  #contentFiltered = false;
  #finished = false;
  /** The upstream body ended (and was flushed) while priming. */
  #upstreamEnded = false;
  /** An in-band error that arrived in the same chunk as the first content: sent right after it. */
  #errorAfterHeld: GatewayError | undefined;
  /** Set by {@link interrupt}: the error the client's stream ends with. */
  #interruption: GatewayError | undefined;
  /** Resolves the write waiting for the client to read more. */
  #resumeReading: (() => void) | undefined;
  /** Settles when the client-facing stream has closed. */
  #closed: Promise<void> | undefined;

  constructor(parts: StreamPumpParts) {
    this.#parts = parts;
    this.#iterator = parts.body[Symbol.asyncIterator]();
    this.ended = new Promise((resolve) => (this.#reportEnd = resolve));
  }

  /**
   * Reads until content, an in-band error before content, or the end of the upstream. Nothing
   * is sent yet. A refusal (a content-filter stop and no content) has no content to stop at, so
   * it is read to its end, usage and all: it can be sent as it is, or abandoned for a fallback.
   */
  async prime(): Promise<PrimeResult> {
    for (;;) {
      const next = await this.#iterator.next();
      if (next.done === true) {
        // The upstream finished before any content: its end (an empty or broken-off stream is
        // an error the decoder reports only now) decides like any frame would.
        this.#upstreamEnded = true;
        const error = this.#flushEnd(this.#held);
        if (error !== undefined && !this.#contentSeen) return { kind: 'error', error };
        if (error !== undefined) this.#errorAfterHeld = error;
        return this.#contentFiltered && !this.#contentSeen && error === undefined ? { kind: 'refused' } : { kind: 'ended' };
      }
      const error = this.#translateChunk(next.value, this.#held);
      if (error !== undefined && !this.#contentSeen) return { kind: 'error', error };
      if (error !== undefined) {
        this.#errorAfterHeld = error;
        return { kind: 'content' };
      }
      if (this.#contentSeen) return { kind: 'content' };
    }
  }

  /** The last affinity key the decoder reported, known once priming has read the stream's start. */
  get affinityKey(): string | undefined {
    return this.#affinityKey;
  }

  /** Abandons a primed stream that will not be sent (failover): the upstream is aborted and its body released. */
  abandon(): void {
    this.#finished = true;
    this.#parts.upstreamAbort.abort();
    void this.#iterator.return?.().catch(() => {});
  }

  /**
   * The client-facing stream: the held-back start, then the rest as it arrives, one write per
   * upstream read and the last one with the end (see {@link WriteThroughReadable}).
   */
  readable(): Readable {
    let lastWrite = Date.now();
    const parts = this.#parts;
    const readable = new WriteThroughReadable(
      () => this.#resume(),
      (error, callback) => {
        if (!this.#finished) parts.upstreamAbort.abort();
        // A write waiting for a client that stopped reading would otherwise wait forever.
        this.#resume();
        callback(error);
      },
    );
    this.#closed = new Promise((resolve) => readable.once('close', resolve));
    // Undefined when the client took the text: the read loop goes on without an await.
    const writeText = (text: string): Promise<void> | undefined => {
      if (text === '') return undefined;
      lastWrite = Date.now();
      if (readable.send(text) || this.#interruption !== undefined || readable.destroyed) return undefined;
      return new Promise<void>((resolve) => (this.#resumeReading = resolve));
    };
    // The text of a run of pieces goes out in one write, as it did before any was held; a
    // wait sends what came before it first, so only what follows it is held back. Nearly
    // every run is one string (an upstream read's events, held by nothing).
    const write = (pieces: readonly Piece[]): Promise<void> | undefined => {
      if (pieces.length === 0) return undefined;
      if (pieces.length === 1 && typeof pieces[0] === 'string') return writeText(pieces[0]);
      return writeRun(pieces);
    };
    const writeRun = async (pieces: readonly Piece[]) => {
      let text = '';
      for (const piece of pieces) {
        if (typeof piece === 'string') {
          text += piece;
          continue;
        }
        await writeText(text);
        text = '';
        // A hold that failed anyway releases what it held: the answer is never lost to it.
        await piece.catch(() => {});
      }
      await writeText(text);
    };
    const keepalive = parts.encoder.keepalive;
    // One timer per stream, not per event: it checks the time of the last write.
    const timer =
      keepalive === undefined
        ? undefined
        : setInterval(() => {
            if (Date.now() - lastWrite >= parts.keepaliveMilliseconds && !readable.destroyed) {
              lastWrite = Date.now();
              readable.send(keepalive);
            }
          }, Math.max(50, Math.floor(parts.keepaliveMilliseconds / 2)));
    timer?.unref();

    const run = async () => {
      let failure: GatewayError | undefined;
      // The text that ends the stream, written with the end itself.
      let last = '';
      try {
        this.#held.unshift(parts.encoder.start());
        await writeRun(this.#held);
        this.#held.length = 0;
        if (this.#errorAfterHeld !== undefined) throw this.#errorAfterHeld;
        // A stream that ended while priming has been flushed into what was held already.
        if (!this.#upstreamEnded) {
          for (;;) {
            const next = await this.#iterator.next();
            if (next.done === true) break;
            const outputs: Piece[] = [];
            const error = this.#translateChunk(next.value, outputs);
            const written = write(outputs);
            if (written !== undefined) await written;
            if (error !== undefined) throw error;
            if (this.#interruption !== undefined) throw this.#interruption;
          }
          // An upstream body that ends quietly when aborted must not pass for a whole stream.
          if (this.#interruption !== undefined) throw this.#interruption;
          const ending: Piece[] = [];
          const error = this.#flushEnd(ending);
          if (error !== undefined) {
            await write(ending);
            throw error;
          }
          if (ending.every((piece) => typeof piece === 'string')) last = ending.join('');
          else await write(ending);
        }
      } catch (error) {
        failure = this.#interruption ?? asGatewayError(error);
        // Sent without waiting for the client: the stream ends right after it either way.
        if (!parts.clientSignal.aborted && !readable.destroyed) last = parts.encoder.error(failure);
      } finally {
        if (timer !== undefined) clearInterval(timer);
        readable.finish(last);
        this.#finish(failure, parts.clientSignal.aborted);
      }
    };
    void run();
    return readable;
  }

  /**
   * Ends a stream being sent early (the shutdown deadline): the upstream is aborted, the
   * client gets `error` as the last event in its wire format, and the stream is settled on
   * the usage so far. Resolves once the client's stream has closed.
   */
  interrupt(error: GatewayError): Promise<void> {
    if (this.#closed === undefined) return Promise.resolve();
    if (!this.#finished) {
      this.#interruption ??= error;
      this.#parts.upstreamAbort.abort();
      this.#resume();
    }
    return this.#closed;
  }

  #resume(): void {
    this.#resumeReading?.();
    this.#resumeReading = undefined;
  }

  /**
   * Appends the text written at the end to `texts`: what the decoder closes with, then the
   * encoder's end. Returns the error the end revealed (a stream that broke off, or had no
   * answer) instead of the encoder's end, so the caller can report it.
   */
  #flushEnd(texts: Piece[]): GatewayError | undefined {
    const error = this.#translateFrames(this.#parts.splitter.end(), texts) ?? this.#apply(this.#parts.decoder.end(), texts);
    if (error === undefined) texts.push(this.#parts.encoder.end());
    return error;
  }

  /**
   * Translates the frames one upstream chunk completes. A splitter failure (an oversized
   * event) is reported after the frames before it: whatever the upstream sent ahead of it
   * counts as sent, however its bytes were chunked, so a stream with content before the
   * oversized event always starts and ends with an in-band error, and one without fails over.
   */
  #translateChunk(chunk: Uint8Array, texts: Piece[]): GatewayError | undefined {
    const frames: SseFrame[] = [];
    let splitFailure: unknown;
    try {
      this.#parts.splitter.split(chunk, frames);
    } catch (error) {
      splitFailure = error;
    }
    const error = this.#translateFrames(frames, texts);
    if (error !== undefined || splitFailure === undefined) return error;
    return asGatewayError(splitFailure);
  }

  #translateFrames(frames: SseFrame[], texts: Piece[]): GatewayError | undefined {
    for (const frame of frames) {
      const error = this.#apply(this.#parts.decoder.push(frame), texts);
      if (error !== undefined) return error;
    }
    return undefined;
  }

  #apply(outputs: StreamOutput[], texts: Piece[]): GatewayError | undefined {
    for (const output of outputs) {
      // Events first: nearly every output is one.
      if (output.type === 'event') {
        if (output.content) this.#contentSeen = true;
        this.#outputCharacters += output.outputCharacters ?? (output.content ? output.data.length : 0);
        const hold = this.#parts.holdBefore?.(output);
        if (hold !== undefined) texts.push(hold);
        texts.push(this.#parts.encoder.event(output));
      } else if (output.type === 'usage') this.#usage = output.usage;
      else if (output.type === 'error') return output.error;
      else if (output.type === 'affinity') this.#affinityKey = output.key;
      else this.#contentFiltered = true;
    }
    return undefined;
  }

  #finish(error: GatewayError | undefined, aborted: boolean): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#reportEnd({ usage: this.#usage, outputCharacters: this.#outputCharacters, error, aborted });
  }
}
