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
   * Writes the line with the route, `status`, the milliseconds since the request arrived,
   * and `fields`. Only the first call writes: a request has one line.
   */
  write(level: 'info' | 'warn', status: number, fields: Record<string, unknown>, message: string): void;
}
