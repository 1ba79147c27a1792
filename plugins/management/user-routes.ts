import type { FastifyInstance } from 'fastify';
import type { UserRecord } from '../../core/users/user-repository.js';
import type { UserService } from '../../core/users/user-service.js';
import { parseClientInput } from '../../core/validation/parse-client-input.js';
import { requireAdmin, signedInUser } from '../auth/route-auth.js';
import { createUserBody, updateUserBody } from './admin-request-schemas.js';
import { envelope, loginRoute as login } from './management-route.js';
import { pageQuery } from './token-request-schemas.js';

/** A user as the user API shows it: never its login token's hash. */
export function toUserObject(user: UserRecord) {
  return { id: user.id, username: user.username, role: user.role, status: user.status, created_time: user.created_time };
}

/**
 * The user API: `GET /api/user/self` for anyone signed in (the console reads its role), and
 * for admins the list, creation (the login token is answered once) and enabling or disabling.
 */
export async function userRoutes(app: FastifyInstance, options: { users: UserService }): Promise<void> {
  const { users } = options;

  app.get('/api/user/self', login, async (request) => envelope(toUserObject(signedInUser(request))));

  app.get('/api/user/', login, async (request) => {
    requireAdmin(request);
    const query = parseClientInput(pageQuery, request.query, 'query');
    const page = await users.list(query.p, query.size);
    return envelope({ ...page, items: page.items.map(toUserObject) });
  });

  app.post('/api/user/', login, async (request, reply) => {
    requireAdmin(request);
    const body = parseClientInput(createUserBody, request.body);
    const { user, loginToken } = await users.create(body.username, body.role);
    reply.header('cache-control', 'no-store');
    return envelope({ ...toUserObject(user), login_token: loginToken });
  });

  app.put('/api/user/', login, async (request) => {
    const admin = requireAdmin(request);
    const body = parseClientInput(updateUserBody, request.body);
    return envelope(toUserObject(await users.setStatus(admin.id, body.id, body.status)));
  });
}
