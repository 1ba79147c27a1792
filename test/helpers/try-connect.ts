import { connect } from 'node:net';

/** Resolves with the error code of a TCP connect to the port, or 'connected'. */
export function tryConnect(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });
}

/**
 * Connects until the port refuses or `milliseconds` pass, and resolves with the last result.
 * A listener being closed may still accept, or reset a connection it had queued, for a moment.
 */
export async function waitUntilRefused(port: number, milliseconds = 3000): Promise<string> {
  const deadline = Date.now() + milliseconds;
  let connection = await tryConnect(port);
  while (connection !== 'ECONNREFUSED' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    connection = await tryConnect(port);
  }
  return connection;
}
