import { randomBytes } from 'node:crypto';
import type { PiecewiseAnswer, RecordedRequest } from '../../../core/testing/index.js';
import type { OpenAiBehaviour } from './openai-behaviour.js';

/** What a route of the fake OpenAI upstream gets for one authorised request. */
export interface OpenAiExchange {
  request: RecordedRequest;
  behaviour: OpenAiBehaviour;
  /** When the request arrived, for `openai-processing-ms`. */
  started: number;
}

/** One route of the fake: turns an exchange into the answer to write. */
export type OpenAiRoute = (exchange: OpenAiExchange) => PiecewiseAnswer | Promise<PiecewiseAnswer>;

/** The headers OpenAI sends with every answer (upstreams.md §2.1). */
export function openAiHeaders(contentType: string, started: number): Record<string, string> {
  return {
    'content-type': contentType,
    'openai-processing-ms': String(Date.now() - started),
    'openai-version': '2020-10-01',
    'x-request-id': `req_${randomBytes(16).toString('hex')}`,
  };
}

/** Pretty JSON with a two-space indent and no trailing newline, as OpenAI sends a non-stream body. */
export const prettyJson = (value: unknown): string => JSON.stringify(value, null, 2);

/** A whole body with its length, as a non-stream answer goes out. */
export function textAnswer(status: number, text: string, started: number, contentType = 'application/json'): PiecewiseAnswer {
  const headers = { ...openAiHeaders(contentType, started), 'content-length': String(Buffer.byteLength(text)) };
  return { status, headers, pieces: [text], streamed: false };
}

/** A JSON answer: a string body is sent as is, anything else as pretty JSON. */
export const jsonAnswer = (status: number, body: unknown, started: number): PiecewiseAnswer =>
  textAnswer(status, typeof body === 'string' ? body : prettyJson(body), started);

/** The content type of every OpenAI event stream. */
export const eventStreamType = 'text/event-stream; charset=utf-8';

/** A 200 event stream written in `pieces`, chunked, without a length. */
export const streamAnswer = (pieces: Array<string | Uint8Array>, started: number): PiecewiseAnswer => ({
  status: 200,
  headers: openAiHeaders(eventStreamType, started),
  pieces,
  streamed: true,
});

/** A string is cut after each blank line so each event is its own chunk; bytes stay exact. */
export function rawPieces(raw: string | Uint8Array | Array<string | Uint8Array>): Array<string | Uint8Array> {
  if (Array.isArray(raw)) return raw;
  if (typeof raw !== 'string') return [raw];
  return raw.split(/(?<=\r\n\r\n|\n\n|\r\r)/).filter((piece) => piece !== '');
}

/** A string of `length` random letters and digits, like OpenAI's `obfuscation` padding. */
export function randomAlphanumeric(length: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return [...randomBytes(length)].map((byte) => alphabet[byte % alphabet.length]).join('');
}

/** A one-token-per-word stand-in for a tokenizer. */
export const countWords = (text: string): number => text.split(/\s+/).filter((word) => word !== '').length;

/** The first value of a header that may repeat. */
export const headerValue = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/** A JSON object, not an array or null. */
export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
