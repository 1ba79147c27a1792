import type { FastifyBaseLogger } from 'fastify';
import t from 'tap';
import { createProviderHost, type HostServices } from '../../../core/loader/create-provider-host.js';
import { createLogger } from '../../../core/logging/create-logger.js';
import { MemoryStoreBackend } from '../../../core/store/memory-store-backend.js';

/** A host on a memory store; a namespace is used only through the store, so the HTTP parts stay out of it. */
function hostFor(pluginName: string) {
  const backend = new MemoryStoreBackend();
  const logger = createLogger({ level: 'silent' }) as unknown as FastifyBaseLogger;
  const services = { backend, logger, now: () => Date.now() } as Pick<HostServices, 'backend' | 'logger' | 'now'>;
  return { backend, host: createProviderHost(services as HostServices, pluginName, 'channel-1') };
}

t.test("a plugin's namespace lives under plugin:<name>:<namespace>, keys with ':' included", async (t) => {
  const { backend, host } = hostFor('vo');
  await host.keyValueStore('tasks').set('operations:abc', { note: 1 });
  t.same(await backend.keyv('plugin:vo:tasks').get('operations:abc'), { note: 1 });
});

t.test("a namespace with ':' is refused, since storage copy could not tell where it ends", async (t) => {
  const { host } = hostFor('vo');
  t.throws(() => host.keyValueStore('tasks:open'), /the key-value namespace "tasks:open" may not contain ":"/);
});
