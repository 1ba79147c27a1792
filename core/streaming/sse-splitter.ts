import type { SseFrame } from '../contracts/stream-decoder.js';
import { GatewayError } from '../errors/gateway-error.js';

const lineFeed = 0x0a;
const carriageReturn = 0x0d;
const colon = 0x3a;
const space = 0x20;

/** 32 MiB, the default of `streaming.max_event_bytes`: room for an inline 4K image in base64. */
export const defaultMaxEventBytes = 32 * 1024 * 1024;

/** Options of an {@link SseSplitter}. */
export interface SseSplitterOptions {
  /**
   * The largest event accepted, in bytes: the sum of its lines (comments included, line
   * endings not) up to the blank line that ends it, counting a line still being received.
   * Defaults to {@link defaultMaxEventBytes}.
   */
  maxEventBytes?: number;
}

const asBuffer = (chunk: Uint8Array): Buffer =>
  Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);

/**
 * Splits a server-sent event stream into frames as its bytes arrive, following the WHATWG
 * event-stream rules: lines end in LF, CRLF or CR; a blank line ends an event; `data:`
 * lines are joined with `\n`; `event:` and `id:` are kept; comments (`:`), `retry:` and
 * unknown fields are dropped; one space after the colon is optional; an event without
 * `data` is dropped. Text is decoded per complete line, so a chunk may end anywhere, even
 * inside a UTF-8 character or between CR and LF.
 *
 * Departures from the browser algorithm, on purpose: `id` belongs to its own frame only
 * (no "last event id" carried forward), and {@link SseSplitter.end} delivers a final event
 * that lacks its blank line, because some upstreams end the stream right after the data.
 *
 * A chunk without a line ending is kept by reference until its line completes, so callers
 * must not reuse a chunk's memory after pushing it (Node streams never do).
 */
export class SseSplitter {
  readonly #maxEventBytes: number;
  #pendingChunks: Buffer[] = [];
  #pendingLength = 0;
  /** A CR ended the previous chunk; an LF starting the next one belongs to it. */
  #skipLeadingLineFeed = false;
  #atStreamStart = true;
  #data: string | undefined;
  #event: string | undefined;
  #id: string | undefined;
  #eventBytes = 0;

  constructor(options: SseSplitterOptions = {}) {
    this.#maxEventBytes = options.maxEventBytes ?? defaultMaxEventBytes;
  }

  /**
   * The events completed by this chunk, in order.
   * @throws GatewayError `upstream_event_too_large` (502) when an event outgrows `maxEventBytes`;
   *   the splitter is then reset and the stream should be abandoned. The events the chunk
   *   completed before that one are lost with the throw: see {@link split}.
   */
  push(chunk: Uint8Array): SseFrame[] {
    const frames: SseFrame[] = [];
    this.split(chunk, frames);
    return frames;
  }

  /**
   * Appends the events completed by this chunk to `frames`, in order. When an event outgrows
   * `maxEventBytes` it throws as {@link push} does, with the events before it already in
   * `frames`: what a chunk holds before an oversized event is the same whether the upstream
   * sent both in one write or in two.
   */
  split(chunk: Uint8Array, frames: SseFrame[]): void {
    const bytes = asBuffer(chunk);
    let start = 0;
    if (this.#skipLeadingLineFeed && bytes.length > 0) {
      this.#skipLeadingLineFeed = false;
      if (bytes[0] === lineFeed) start = 1;
    }
    if (start === bytes.length) return;

    const lineFeedIndex = bytes.indexOf(lineFeed, start);
    const carriageReturnIndex = bytes.indexOf(carriageReturn, start);
    if (lineFeedIndex === -1 && carriageReturnIndex === -1) {
      this.#pendingChunks.push(start === 0 ? bytes : bytes.subarray(start));
      this.#pendingLength += bytes.length - start;
      this.#checkSize(this.#pendingLength);
      return;
    }

    if (this.#pendingLength === 0) {
      this.#splitLines(bytes, start, lineFeedIndex, carriageReturnIndex, frames);
      return;
    }
    // The pending bytes hold no line ending, so the first ones found in this chunk are also
    // the first ones of the joined buffer, shifted by the pending length.
    const shift = this.#pendingLength - start;
    this.#pendingChunks.push(bytes.subarray(start));
    const joined = Buffer.concat(this.#pendingChunks, this.#pendingLength + bytes.length - start);
    this.#pendingChunks = [];
    this.#pendingLength = 0;
    this.#splitLines(
      joined,
      0,
      lineFeedIndex === -1 ? -1 : lineFeedIndex + shift,
      carriageReturnIndex === -1 ? -1 : carriageReturnIndex + shift,
      frames,
    );
  }

  /** Ends the stream: delivers a last line and event that were not terminated, then resets. */
  end(): SseFrame[] {
    const frames: SseFrame[] = [];
    if (this.#pendingLength > 0) {
      const line = Buffer.concat(this.#pendingChunks, this.#pendingLength);
      this.#pendingChunks = [];
      this.#pendingLength = 0;
      this.#line(line, 0, line.length, frames);
    }
    this.#dispatch(frames);
    this.#reset();
    return frames;
  }

  #splitLines(bytes: Buffer, position: number, lineFeedIndex: number, carriageReturnIndex: number, frames: SseFrame[]): void {
    // Each index is -1 once no such byte remains, so each byte kind is scanned at most once.
    let nextLineFeed = lineFeedIndex;
    let nextCarriageReturn = carriageReturnIndex;
    for (;;) {
      if (nextLineFeed !== -1 && nextLineFeed < position) nextLineFeed = bytes.indexOf(lineFeed, position);
      if (nextCarriageReturn !== -1 && nextCarriageReturn < position) nextCarriageReturn = bytes.indexOf(carriageReturn, position);
      let end: number;
      if (nextLineFeed === -1) {
        if (nextCarriageReturn === -1) break;
        end = nextCarriageReturn;
      } else {
        end = nextCarriageReturn === -1 || nextLineFeed < nextCarriageReturn ? nextLineFeed : nextCarriageReturn;
      }
      this.#line(bytes, position, end, frames);
      position = end + 1;
      if (end === nextCarriageReturn) {
        if (position === bytes.length) this.#skipLeadingLineFeed = true;
        else if (bytes[position] === lineFeed) position += 1;
      }
    }
    if (position < bytes.length) {
      // A copy, so the rest of a large chunk is not kept alive by a short partial line.
      const rest = Buffer.from(bytes.subarray(position));
      this.#pendingChunks.push(rest);
      this.#pendingLength = rest.length;
      this.#checkSize(this.#pendingLength);
    }
  }

  #line(bytes: Buffer, start: number, end: number, frames: SseFrame[]): void {
    if (this.#atStreamStart) {
      this.#atStreamStart = false;
      // The event-stream format allows one UTF-8 byte order mark before the first line.
      if (end - start >= 3 && bytes[start] === 0xef && bytes[start + 1] === 0xbb && bytes[start + 2] === 0xbf) start += 3;
    }
    const length = end - start;
    if (length === 0) {
      this.#dispatch(frames);
      return;
    }
    this.#eventBytes += length;
    this.#checkSize(0);
    const first = bytes[start];
    if (first === colon) return;
    if (
      first === 0x64 &&
      length >= 5 &&
      bytes[start + 1] === 0x61 &&
      bytes[start + 2] === 0x74 &&
      bytes[start + 3] === 0x61 &&
      bytes[start + 4] === colon
    ) {
      this.#appendData(bytes.toString('utf8', this.#valueStart(bytes, start + 5, end), end));
      return;
    }
    const colonIndex = bytes.subarray(start, end).indexOf(colon);
    const field = bytes.toString('utf8', start, colonIndex === -1 ? end : start + colonIndex);
    const value = colonIndex === -1 ? '' : bytes.toString('utf8', this.#valueStart(bytes, start + colonIndex + 1, end), end);
    if (field === 'data') this.#appendData(value);
    else if (field === 'event') this.#event = value;
    else if (field === 'id' && !value.includes('\u0000')) this.#id = value;
  }

  #valueStart(bytes: Buffer, afterColon: number, end: number): number {
    return afterColon < end && bytes[afterColon] === space ? afterColon + 1 : afterColon;
  }

  #appendData(value: string): void {
    this.#data = this.#data === undefined ? value : `${this.#data}\n${value}`;
  }

  #dispatch(frames: SseFrame[]): void {
    if (this.#data !== undefined) {
      const frame: SseFrame = { data: this.#data };
      if (this.#event !== undefined && this.#event !== '') frame.event = this.#event;
      if (this.#id !== undefined) frame.id = this.#id;
      frames.push(frame);
    }
    this.#data = undefined;
    this.#event = undefined;
    this.#id = undefined;
    this.#eventBytes = 0;
  }

  #checkSize(partialLineBytes: number): void {
    if (this.#eventBytes + partialLineBytes <= this.#maxEventBytes) return;
    this.#reset();
    throw new GatewayError(
      502,
      'upstream_event_too_large',
      `an upstream stream event exceeded the limit of ${this.#maxEventBytes} bytes`,
      { retryable: false },
    );
  }

  #reset(): void {
    this.#pendingChunks = [];
    this.#pendingLength = 0;
    this.#skipLeadingLineFeed = false;
    this.#atStreamStart = true;
    this.#data = undefined;
    this.#event = undefined;
    this.#id = undefined;
    this.#eventBytes = 0;
  }
}
