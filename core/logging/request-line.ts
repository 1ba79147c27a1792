/**
 * What every request's line says first: how it came in, how it was answered and how long
 * that took. The writer of a {@link RequestLine} fills these in.
 */
export interface RequestLineSummary {
  /** `METHOD /pattern`, or `METHOD unmatched`. */
  route?: string;
  /** The path of a request no route matched (redacted, clipped). */
  path?: string;
  status?: number;
  milliseconds?: number;
}

/**
 * The one line a request writes to the log, when it is over. The server writes it for every
 * request as its response is sent; a model request's line is handed to the pipeline instead,
 * which writes it with the model, the attempts and the usage, a stream's once the stream
 * has ended. Either way the line carries the request's id (on every line of the request),
 * its route, status and latency.
 */
export interface RequestLine {
  /** Whether the line was written. */
  readonly written: boolean;
  /**
   * Writes `fields` as the line, after filling in its summary: the route, `status` and the
   * milliseconds since the request arrived. Only the first call writes: a request has one
   * line. `fields` is the line itself, not copied: its summary keys come first (left
   * undefined by the caller) so the line is built as one object of one shape, which keeps
   * this per-request write cheap.
   */
  write(level: 'info' | 'warn', status: number, fields: RequestLineSummary, message: string): void;
}
