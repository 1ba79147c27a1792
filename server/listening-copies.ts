import { spawn, type SendHandle } from 'node:child_process';
import cluster from 'node:cluster';
import type { Server as HttpServer } from 'node:http';
import { createServer, type ListenOptions, type Server as NetServer, type Socket } from 'node:net';

/** The copies of a server's listening socket, made in the background: what it closes when it stops taking connections. */
export interface ListeningCopies {
  /** How many copies listen now (0 when none could be made, or none was asked for). */
  readonly count: number;
  /** How many connections came in through the copies rather than the socket's own descriptor. */
  readonly accepted: number;
  /** Settles once every copy asked for listens, or no more will come (the child failed, or `close` came first). */
  readonly ready: Promise<void>;
  /** Stops the copies listening, and any still to come; connections they took stay the server's, open until they end. */
  close(): void;
}

const none: ListeningCopies = { count: 0, accepted: 0, ready: Promise.resolve(), close() {} };

/**
 * The child's whole program: handed the listening socket's native handle (never listened on,
 * so the child takes no connection in), it sends it back as many times as asked, each arriving
 * as a new descriptor of the same socket, then says `last`: Node sends handles one at a time,
 * each once the last was acknowledged, and queues plain messages behind them, so `last`
 * arrives after every copy. The parent then disconnects and the child exits; one whose parent
 * has gone, or that is still there after 10 s, exits too. Inline (`node --eval`), so it runs
 * the same from the build and from the sources, with none of the server's flags or loaders.
 */
const childProgram = `process.on('disconnect', () => process.exit(0));
setTimeout(() => process.exit(0), 10000);
process.once('message', (message, handle) => {
  for (let index = 0; index < message.copies; index++) process.send({ copy: index }, handle);
  process.send({ last: true });
});`;

/** The parts of a `net.Server` and `net.Socket` that count a server's connections (Node's own bookkeeping, unchanged since Node 0.x). */
type Counted = NetServer & { _connections: number };
type CountedSocket = Socket & { server: NetServer; _server: NetServer };

/**
 * `server.accepts_per_turn`: a listening socket read through `count` more descriptors, so the
 * process takes in up to `count + 1` new connections each turn of its event loop instead of one.
 *
 * Since libuv 1.45 (Node 20's is 1.46) a readable listening descriptor yields one `accept()` per
 * turn: the loop relies on the descriptor being readable again next turn for the rest. An idle
 * process turns thousands of times a second, but one whose core is full of streams turns every
 * 50–200 ms, each turn a pass over every socket with data. A burst of new connections (500
 * clients reconnecting at once) then waits in the kernel's accept queue, one let in per turn:
 * the bench saw the last of 500 accepted five seconds after the first, long past what the
 * streams already served waited, and neither served nor refused by `server.max_in_flight`
 * meanwhile (docs/benchmark.md, "New connections under a full core"). Every descriptor of the
 * socket is polled on its own, so each copy is one more accept per turn; a copy of an empty
 * queue is not readable, so steady traffic pays nothing for them.
 *
 * Node has no `dup()`, but a handle sent over an IPC channel arrives as a new descriptor of the
 * same socket: a short-lived child ({@link childProgram}) is handed the listening socket's
 * native handle and sends it back `count` times, then exits. Connections a copy accepts
 * are handed to `server` as Node's own accept would (`connection`, counted as the server's, so
 * `server.close()` waits for them too). Only a process that owns its listening socket makes
 * copies: a cluster worker's is held by its primary.
 */
export function listenThroughCopies(server: HttpServer, count: number): ListeningCopies {
  if (count < 1 || !cluster.isPrimary || !server.listening) return none;
  let accepted = 0;
  let closed = false;
  const copies: NetServer[] = [];
  const take = (socket: Socket, from: NetServer) => {
    accepted += 1;
    // What net.Server's onconnection did for the copy, moved to `server`: Node's socket
    // decrements its `_server`'s count when it closes, and `close()` waits on that count.
    (from as Counted)._connections -= 1;
    (server as unknown as Counted)._connections += 1;
    (socket as CountedSocket).server = server;
    (socket as CountedSocket)._server = server;
    server.emit('connection', socket);
  };
  const making = receiveCopies(server, count, take, (copy) => {
    // A copy that arrives once the server stopped listening never takes a connection in.
    if (closed) copy.close();
    else copies.push(copy);
  });
  return {
    get count() {
      return copies.length;
    },
    get accepted() {
      return accepted;
    },
    ready: making.done,
    close() {
      closed = true;
      making.stop();
      for (const copy of copies.splice(0)) copy.close();
    },
  };
}

/**
 * Servers listening on the copies the child sends back, each handed to `listening` as it
 * arrives and its connections to `take`; fewer or none if the child could not start or send
 * them (the server then accepts as before). `stop` ends the child early.
 */
function receiveCopies(
  server: HttpServer,
  count: number,
  take: (socket: Socket, from: NetServer) => void,
  listening: (copy: NetServer) => void,
): { done: Promise<void>; stop: () => void } {
  let child: ReturnType<typeof spawn>;
  try {
    // NODE_OPTIONS left out too: a preload (an agent) has nothing to do in the child.
    const environment = { ...process.env };
    delete environment.NODE_OPTIONS;
    child = spawn(process.execPath, ['--eval', childProgram], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], serialization: 'json', env: environment });
  } catch {
    return { done: Promise.resolve(), stop() {} };
  }
  const done = new Promise<void>((resolve) => {
    child.on('message', (message: { copy?: number; last?: boolean }, handle: unknown) => {
      if (message.last === true) {
        child.disconnect();
        return;
      }
      if (handle === undefined) return;
      // A native handle of the listening socket: a server listening on it takes connections
      // in on its own descriptor, handing each to `take` from the first.
      const copy = createServer();
      copy.on('connection', (socket: Socket) => take(socket, copy));
      // Accept errors come back on every descriptor of the socket alike; the server's own reports them.
      copy.on('error', () => {});
      copy.listen({ _handle: handle } as unknown as ListenOptions);
      listening(copy);
    });
    // The channel closes once the child said `last`, or went away: every copy it sent has arrived.
    const finish = () => {
      clearTimeout(deadline);
      resolve();
    };
    // A child that does not answer within it is not worth waiting for: the server accepts as before.
    const deadline = setTimeout(() => child.kill(), 5000);
    child.on('disconnect', finish);
    // A child killed before its channel opened never disconnects.
    child.on('exit', finish);
    child.on('error', finish);
  });
  // The native handle, not the server: Node would listen on a server it receives, in the child.
  child.send({ copies: count }, (server as unknown as { _handle: SendHandle })._handle);
  return {
    done,
    stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill();
    },
  };
}
