import t from 'tap';
import { ClusterWorkerMessageBus } from '../../../server/cluster-store-messages.js';

// tap runs this file in a child process with an IPC channel of its own, so `process.send`
// exists here; the first case stands in for a channel to the primary that has closed.

t.test('a worker whose channel to the primary has closed still tells itself, and says the other workers were not told', async (t) => {
  const realSend = process.send;
  t.teardown(() => {
    process.send = realSend;
  });
  process.send = (_message: unknown, _handle?: unknown, _options?: unknown, callback?: (error: Error | null) => void) => {
    callback?.(Object.assign(new Error('Channel closed'), { code: 'ERR_IPC_CHANNEL_CLOSED' }));
    return false;
  };
  const bus = new ClusterWorkerMessageBus();
  t.teardown(() => bus.close());
  const received: string[] = [];
  bus.subscribe('token-invalidated', (message) => received.push(message));
  await t.rejects(bus.publish('token-invalidated', '7'), /could not tell the other workers through the cluster primary: Channel closed/);
  t.same(received, ['7'], 'its own subscriber heard it at once');
});

t.test('only store messages from the primary are delivered, and a closed bus delivers nothing', async (t) => {
  const listenersBefore = process.listenerCount('message');
  const bus = new ClusterWorkerMessageBus();
  const received: string[] = [];
  bus.subscribe('token-invalidated', (message) => received.push(message));
  process.emit('message', { type: 'model-gateway:stop', now: false }, undefined);
  process.emit('message', { type: 'model-gateway:store-message', channel: 'token-invalidated', message: '3' }, undefined);
  process.emit('message', { type: 'model-gateway:store-message', channel: 'token-invalidated', message: 4 }, undefined);
  t.same(received, ['3'], 'a well-formed store message is delivered, nothing else');
  bus.close();
  process.emit('message', { type: 'model-gateway:store-message', channel: 'token-invalidated', message: '5' }, undefined);
  t.same(received, ['3'], 'nothing after close');
  t.equal(process.listenerCount('message'), listenersBefore, 'the bus stopped listening on the process channel');
});
