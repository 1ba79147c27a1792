import type { FastifyInstance } from 'fastify';
import type { StoreBackend } from '../../core/store/store-backend.js';

const readinessTimeoutMilliseconds = 2000;

/** `/healthz`: the process serves. `/readyz`: and its storage answers. */
export async function healthPlugin(app: FastifyInstance, options: { backend: StoreBackend }): Promise<void> {
  app.get('/healthz', { config: { auth: 'none' } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { config: { auth: 'none' } }, async (_request, reply) => {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        options.backend.ping(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('timed out')), readinessTimeoutMilliseconds);
        }),
      ]);
      return { status: 'ready', storage: options.backend.driver };
    } catch {
      return reply.code(503).send({ status: 'unavailable', storage: options.backend.driver, reason: 'storage does not answer' });
    } finally {
      clearTimeout(timer);
    }
  });
}
