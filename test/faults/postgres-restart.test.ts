import t from 'tap';
import { startPostgresServer } from '../helpers/postgres-server-process.js';
import { storeRestartUnderLoad } from './store-restart-scene.js';

// On a private PostgreSQL cluster: stopping the machine's shared server would fail every other
// test running meanwhile.

t.test('a PostgreSQL restart under load: not ready and fail closed while down, serving again after, every 200 billed once', async (t) => {
  const postgres = await startPostgresServer();
  t.teardown(() => postgres.remove());
  await storeRestartUnderLoad(t, { name: 'PostgreSQL', driver: 'postgres', url: postgres.url, kill: () => postgres.stop(), start: () => postgres.start() });
});
