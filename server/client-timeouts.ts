import type { ServerOptions } from 'node:http';
import type { GatewayConfig } from '../core/config/config-schema.js';

/** The fastify options that bound how long a client may take to send its request. */
export interface ClientTimeoutOptions {
  requestTimeout: number;
  keepAliveTimeout: number;
  connectionTimeout: 0;
  http: ServerOptions;
}

/**
 * The bounds on slow clients (slowloris), from `server.headers_timeout_ms`,
 * `server.request_timeout_ms` and `server.keep_alive_timeout_ms`. Node's HTTP server
 * enforces them: a request whose head or whole body has not arrived in time is answered
 * 408 and its connection closed, and a keep-alive connection idle between requests is
 * closed. Both request bounds end when the request has been received, so they never cut a
 * response being written (an SSE stream may stay silent longer) nor the wait for an
 * upstream, which has its own timeouts (`providers[].timeouts`). That is also why the
 * socket idle timeout (fastify's `connectionTimeout`) stays off: it would cut both.
 */
export function clientTimeoutOptions(server: GatewayConfig['server']): ClientTimeoutOptions {
  const shortest = Math.min(server.headers_timeout_ms, server.request_timeout_ms);
  return {
    requestTimeout: server.request_timeout_ms,
    keepAliveTimeout: server.keep_alive_timeout_ms,
    connectionTimeout: 0,
    http: {
      headersTimeout: server.headers_timeout_ms,
      requestTimeout: server.request_timeout_ms,
      keepAliveTimeout: server.keep_alive_timeout_ms,
      // Node looks for expired requests only this often (30 s by default), so a bound is
      // kept to within a quarter of itself, checking at most once a second.
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(shortest / 4))),
    },
  };
}
