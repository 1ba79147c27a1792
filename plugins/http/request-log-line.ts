import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { redactSecrets } from '../../core/logging/create-logger.js';
import type { RequestLine, RequestLineSummary } from '../../core/logging/request-line.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's line once a model route has handed it to the pipeline, which then writes it. */
    logLine: RequestLine | null;
  }
}

/** Fills in what every request's line says first: how it came in, how it was answered, and how long that took. */
function summarize<Line extends RequestLineSummary>(line: Line, request: FastifyRequest, reply: FastifyReply, status: number): Line {
  const pattern = request.is404 ? undefined : request.routeOptions.url;
  line.route = `${request.method} ${pattern ?? 'unmatched'}`;
  // A request no route matched has no pattern to name it by; its path says what was asked.
  if (pattern === undefined) line.path = redactSecrets(request.url.split('?')[0] ?? '').slice(0, 200);
  line.status = status;
  line.milliseconds = Math.round(reply.elapsedTime * 100) / 100;
  return line;
}

class FastifyRequestLine implements RequestLine {
  #written = false;

  constructor(
    private readonly request: FastifyRequest,
    private readonly reply: FastifyReply,
  ) {}

  get written(): boolean {
    return this.#written;
  }

  write(level: 'info' | 'warn', status: number, fields: RequestLineSummary, message: string): void {
    if (this.#written) return;
    this.#written = true;
    this.request.log[level](summarize(fields, this.request, this.reply, status), message);
  }
}

/**
 * Hands a model request's line to the pipeline, which writes it when the request is over
 * (a stream's when it ends); the server then writes none for it.
 */
export function requestLineOf(request: FastifyRequest, reply: FastifyReply): RequestLine {
  const line = new FastifyRequestLine(request, reply);
  request.logLine = line;
  return line;
}

/**
 * One line per request, in place of fastify's two (`disableRequestLogging`): every request
 * whose line the pipeline did not take writes `request answered` as its response is sent,
 * with its route, status and latency.
 */
export const requestLogLinePlugin = fastifyPlugin(
  async (app: FastifyInstance) => {
    app.decorateRequest('logLine', null);
    // A callback hook, not an async one: it runs on every response and has nothing to await.
    app.addHook('onResponse', (request, reply, done) => {
      if (request.logLine === null) request.log.info(summarize({}, request, reply, reply.statusCode), 'request answered');
      done();
    });
  },
  { name: 'request-log-line' },
);
