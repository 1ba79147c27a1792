import { connect, type Socket } from 'node:net';

/** A TCP connection a test writes raw HTTP bytes to, at its own pace. */
export interface RawConnection {
  /** Sends bytes; false once the connection is closed (nothing is sent then). */
  write(bytes: string | Buffer): boolean;
  /** Everything the server sent so far, as latin1 text. */
  received(): string;
  /** True once the server (or the network) closed the connection. */
  isClosed(): boolean;
  /** Resolves once the connection is closed, with the milliseconds since it was opened. */
  closed: Promise<number>;
  /** The status of the first answer, once its status line has come. */
  status(): number | undefined;
  /** Closes it from the client's side. */
  destroy(): void;
}

/** Opens a connection to a listening gateway on 127.0.0.1. */
export function openRawConnection(port: number): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect({ port, host: '127.0.0.1' });
    const openedAt = Date.now();
    const chunks: Buffer[] = [];
    let closed = false;
    const closedAt = new Promise<number>((resolveClosed) => {
      socket.on('close', () => {
        closed = true;
        resolveClosed(Date.now() - openedAt);
      });
    });
    // A write racing the server's close fails with EPIPE or ECONNRESET; the close says the rest.
    socket.on('error', () => {});
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.once('connect', () => {
      const received = () => Buffer.concat(chunks).toString('latin1');
      resolve({
        write: (bytes) => {
          if (closed || socket.destroyed || !socket.writable) return false;
          socket.write(bytes);
          return true;
        },
        received,
        isClosed: () => closed,
        closed: closedAt,
        status: () => {
          const match = /^HTTP\/1\.1 (\d{3})/.exec(received());
          return match === null ? undefined : Number(match[1]);
        },
        destroy: () => socket.destroy(),
      });
    });
    socket.once('error', reject);
  });
}

/** The body of the first answer on a connection (after its head). */
export function answerBody(connection: RawConnection): string {
  const text = connection.received();
  const start = text.indexOf('\r\n\r\n');
  return start === -1 ? '' : text.slice(start + 4);
}
