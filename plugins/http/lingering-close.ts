import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';

/** `server.lingering_close_ms` and `server.lingering_close_max_mb`, in the units the plugin uses. */
export interface LingeringCloseOptions {
  /** How long the rest of a refused body is read and dropped before the connection is cut; 0 cuts it at once. */
  lingerMilliseconds: number;
  /** How many bytes of it at most. */
  maxBytes: number;
}

/**
 * Reads and drops the rest of the request's body from now on, and cuts the connection once
 * more than `maxBytes` of it came: nothing is kept, the request stream flows into the byte
 * count alone. Listening here, before the answer, also keeps Node from dumping the body
 * unread (a dumped body is never counted).
 */
function drain(socket: Socket, request: IncomingMessage, maxBytes: number): void {
  let drained = 0;
  const count = (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > maxBytes) socket.destroy();
  };
  request.on('data', count);
  socket.once('close', () => request.off('data', count));
  // A parser the body was piped into (multipart) may have stopped reading it: the rest goes nowhere.
  request.unpipe();
  request.resume();
}

/**
 * What Node calls once a `connection: close` answer is flushed: ends the gateway's side (FIN)
 * and destroys the socket once the client has sent its whole body (after the FIN is out, as
 * Node's own `destroySoon` does), or after `lingerMilliseconds` at once, whichever comes first.
 */
function linger(socket: Socket, request: IncomingMessage, lingerMilliseconds: number): void {
  socket.end();
  const close = () => (socket.writableFinished ? socket.destroy() : socket.once('finish', () => socket.destroy()));
  if (lingerMilliseconds === 0 || request.complete) {
    close();
    return;
  }
  const timer = setTimeout(() => socket.destroy(), lingerMilliseconds);
  request.once('end', close);
  socket.once('close', () => {
    clearTimeout(timer);
    request.off('end', close);
  });
}

/**
 * Lingering close, as HTTP servers do it: an answer written before the request's body has all
 * arrived (413 for a body over the limit, a 401 before the body is read, a 400 in the middle of
 * a multipart form) closes the connection, and Node would destroy the socket as soon as the
 * answer is flushed. The client, still writing, then gets a reset, and its TCP stack drops the
 * answer it had not read yet: fetch and the openai SDK report `EPIPE` instead of the 413 that
 * says what to change. Instead, the answer says `connection: close`, the gateway ends its side
 * once the answer is flushed and drains the rest of the body, bounded in time and bytes
 * ({@link LingeringCloseOptions}), before it destroys the socket.
 *
 * Node's server ends a `connection: close` response's socket through `socket.destroySoon()`,
 * so that is the one method replaced, on that socket only.
 */
export const lingeringClosePlugin = fastifyPlugin(
  async (app: FastifyInstance, options: LingeringCloseOptions) => {
    app.addHook('onSend', (request, reply, payload, done) => {
      const { raw } = request;
      const socket = raw.socket as Socket | null;
      // `=== false`: a request of fastify's `inject` has no connection, and no `complete` either.
      if (raw.complete === false && socket !== null) {
        reply.header('connection', 'close');
        drain(socket, raw, options.maxBytes);
        socket.destroySoon = () => linger(socket, raw, options.lingerMilliseconds);
      }
      done(null, payload);
    });
  },
  { name: 'lingering-close' },
);
