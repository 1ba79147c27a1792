import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DependencyContainer } from '../../core/di/dependency-injection.js';
import { unauthorized } from '../../core/errors/error-codes.js';
import type { UserRecord } from '../../core/users/user-repository.js';
import { UserService } from '../../core/users/user-service.js';
import { tokenRoutes } from './token-routes.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user on management routes. */
    user: UserRecord | null;
  }
}

/** Reads `Authorization: Bearer <login token>`; a missing or unknown token is a 401 before the body is read. */
export function bearerCredential(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** The management API under `/api`: every route needs a user login token. */
export async function managementPlugin(app: FastifyInstance, options: { container: DependencyContainer }): Promise<void> {
  const users = options.container.resolve(UserService);
  app.decorateRequest('user', null);
  app.addHook('onRequest', async (request) => {
    const credential = bearerCredential(request);
    if (credential === undefined) throw unauthorized('missing login token: send Authorization: Bearer <login token>', 'unauthorized');
    const user = await users.authenticate(credential);
    if (user === undefined) throw unauthorized('invalid login token', 'unauthorized');
    request.user = user;
  });
  await app.register(tokenRoutes, { container: options.container });
}
