import { createServer, get, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { listenThroughCopies } from '../../../server/listening-copies.js';
import { tryConnect } from '../../helpers/try-connect.js';

const burst = 200;

/** Answers `ok`; a request for `/hold` only once `release` is called. */
async function listening(t: Test): Promise<{ server: Server; port: number; release: () => void }> {
  const held: Array<() => void> = [];
  const server = createServer((request, response) => {
    request.resume();
    if (request.url === '/hold') held.push(() => response.end('ok'));
    else response.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  return { server, port: (server.address() as AddressInfo).port, release: () => held.splice(0).forEach((end) => end()) };
}

/**
 * Opens `count` connections while the loop is held, so they all wait in the accept queue, then
 * counts the turns of the loop until the server has seen every one.
 */
async function turnsToAccept(t: Test, server: Server, port: number, count: number): Promise<{ turns: number; sockets: Socket[] }> {
  const sockets = Array.from({ length: count }, () => connect(port, '127.0.0.1'));
  // Loopback handshakes complete in the kernel: hold the loop until they have.
  const holdUntil = performance.now() + 200;
  while (performance.now() < holdUntil);
  let accepted = 0;
  let turn = 0;
  let lastTurn = 0;
  server.on('connection', () => {
    accepted += 1;
    lastTurn = turn;
  });
  await new Promise<void>((resolve) => {
    const next = () => {
      turn += 1;
      if (accepted >= count || turn > 5 * count) resolve();
      else setImmediate(next);
    };
    setImmediate(next);
  });
  t.equal(accepted, count, 'every connection was accepted');
  return { turns: lastTurn, sockets };
}

t.test('a burst of connections is taken in a few turns of the loop, not one turn each', async (t) => {
  const { server, port } = await listening(t);
  const copies = listenThroughCopies(server, 63);
  await copies.ready;
  t.teardown(() => copies.close());
  t.equal(copies.count, 63);
  const { turns, sockets } = await turnsToAccept(t, server, port, burst);
  t.teardown(() => sockets.forEach((socket) => socket.destroy()));
  // 64 descriptors accept up to 64 a turn: 200 connections in 4 turns, with room for the
  // kernel's order; one descriptor alone takes one a turn, 200 turns.
  t.ok(turns <= 20, `accepted within ${turns} turns`);
  t.ok(copies.accepted > 0, 'the copies took connections in');
});

t.test('connections taken in through the copies are served and counted as the server’s', async (t) => {
  const { server, port, release } = await listening(t);
  const copies = listenThroughCopies(server, 15);
  await copies.ready;
  const { sockets } = await turnsToAccept(t, server, port, 50);
  t.ok(copies.accepted > 0, 'some came in through a copy');
  const ask = (path: string) =>
    Promise.all(
      sockets.map(
        (socket) =>
          new Promise<string>((resolve) => {
            let text = '';
            const read = (chunk: Buffer) => {
              text += chunk.toString('latin1');
              if (!text.endsWith('ok')) return;
              socket.off('data', read);
              resolve(text);
            };
            socket.on('data', read);
            socket.write(`GET ${path} HTTP/1.1\r\nhost: localhost\r\n\r\n`);
          }),
      ),
    );
  const answers = await ask('/');
  t.ok(
    answers.every((answer) => answer.startsWith('HTTP/1.1 200')),
    'every connection got its answer',
  );
  const open = await new Promise<number>((resolve, reject) => server.getConnections((error, count) => (error ? reject(error) : resolve(count))));
  t.equal(open, 50, 'the server counts every open connection, however it came in');

  // Closing waits for every request in progress, then nothing listens on the port any more:
  // no descriptor of the socket is left open, in this process or in the child.
  const held = ask('/hold');
  await new Promise((resolve) => setTimeout(resolve, 50));
  copies.close();
  let closed = false;
  server.close(() => (closed = true));
  await new Promise((resolve) => setTimeout(resolve, 50));
  t.notOk(closed, 'the server is not closed while requests are in progress');
  release();
  t.equal((await held).length, 50, 'the requests in progress were answered');
  sockets.forEach((socket) => socket.destroy());
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.ok(closed, 'the server is closed once the last connection ended');
  t.equal(await tryConnect(port), 'ECONNREFUSED', 'a connection after the close is refused');
});

t.test('connections arriving while the copies are made are served, whichever descriptor or process took them in', async (t) => {
  const { server, port } = await listening(t);
  const answer = () =>
    new Promise<number | string>((resolve) => {
      const request = get({ host: '127.0.0.1', port, path: '/', agent: false, timeout: 5000 }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      });
      request.on('timeout', () => {
        request.destroy();
        resolve('no answer');
      });
      request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });
  const answers: Array<Promise<number | string>> = [];
  let making = true;
  const copies = listenThroughCopies(server, 63);
  t.teardown(() => copies.close());
  void copies.ready.finally(() => (making = false));
  // New connections all the while the child starts, sends the copies back and exits, and after.
  while (making || answers.length < 150) {
    const phase = making ? 'during' : 'after';
    answers.push(answer().then((status) => (status === 200 ? status : `${status} ${phase}`)));
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  t.equal(copies.count, 63, 'every copy listens');
  const statuses = await Promise.all(answers);
  t.ok(statuses.length > 20, `${statuses.length} requests`);
  const failed = statuses.filter((status) => status !== 200);
  t.same(failed, [], `every request was answered (${failed.join(', ')})`);
});

t.test('a close before the copies have come stops them: none listens, and the port refuses once the server closes', async (t) => {
  const { server, port } = await listening(t);
  const copies = listenThroughCopies(server, 63);
  copies.close();
  await copies.ready;
  t.equal(copies.count, 0, 'no copy listens');
  await new Promise<void>((resolve) => server.close(() => resolve()));
  t.equal(await tryConnect(port), 'ECONNREFUSED');
});

t.test('no copies are made when none are asked for', async (t) => {
  const { server } = await listening(t);
  const copies = listenThroughCopies(server, 0);
  await copies.ready;
  t.equal(copies.count, 0);
  t.equal(copies.accepted, 0);
});
