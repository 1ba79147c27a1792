import type { FastifyInstance } from 'fastify';
import type { AuditTrail } from '../../core/audit/audit-trail.js';
import type { BudgetStatus } from '../../core/budgets/budget-policy.js';
import type { UserRecord } from '../../core/users/user-repository.js';
import type { UserService } from '../../core/users/user-service.js';
import { parseClientInput } from '../../core/validation/parse-client-input.js';
import { requireAdmin, signedInUser } from '../auth/route-auth.js';
import { createUserBody, updateUserBody } from './admin-request-schemas.js';
import { auditActorOf } from './audit-actor.js';
import { envelope, loginRoute as login } from './management-route.js';
import { budgetFieldsOf } from './token-object.js';
import { pageQuery } from './token-request-schemas.js';

/** A user as the user API shows it, with its budgets (see {@link budgetFieldsOf}): never its login token's hash. */
export function toUserObject(user: UserRecord, budgets: readonly BudgetStatus[] = []) {
  return { id: user.id, username: user.username, role: user.role, status: user.status, created_time: user.created_time, ...budgetFieldsOf(user.budget, budgets) };
}

/**
 * The user API: `GET /api/user/self` for anyone signed in (the console reads its role), and
 * for admins the list, creation (the login token is answered once) and enabling or disabling.
 * A creation, and an update that changes anything, is on the audit trail before it is
 * answered: the user object before and after (never a login token).
 */
export async function userRoutes(app: FastifyInstance, options: { users: UserService; audit: AuditTrail }): Promise<void> {
  const { users, audit } = options;
  const present = async (user: UserRecord) => toUserObject(user, await users.budgetStatuses(user));
  /** The user object as the trail keeps it, without what its budgets counted so far. */
  const snapshot = (user: UserRecord) => {
    const { budgets: _counted, ...object } = toUserObject(user);
    return object;
  };

  app.get('/api/user/self', login, async (request) => envelope(await present(signedInUser(request))));

  app.get('/api/user/', login, async (request) => {
    requireAdmin(request);
    const query = parseClientInput(pageQuery, request.query, 'query');
    const page = await users.list(query.p, query.size);
    return envelope({ ...page, items: await Promise.all(page.items.map(present)) });
  });

  app.post('/api/user/', login, async (request, reply) => {
    requireAdmin(request);
    const body = parseClientInput(createUserBody, request.body);
    const { username, role, ...budget } = body;
    const { user, loginToken } = await users.create(username, role, budget);
    await audit.record({ action: 'user.create', target: { id: user.id, name: user.username }, before: null, after: snapshot(user) }, auditActorOf(request));
    reply.header('cache-control', 'no-store');
    return envelope({ ...(await present(user)), login_token: loginToken });
  });

  app.put('/api/user/', login, async (request) => {
    const admin = requireAdmin(request);
    const body = parseClientInput(updateUserBody, request.body);
    const { id, ...changes } = body;
    const before = snapshot(await users.get(id));
    const updated = await users.update(admin.id, id, changes);
    const after = snapshot(updated);
    if (JSON.stringify(after) !== JSON.stringify(before)) {
      await audit.record({ action: 'user.update', target: { id: updated.id, name: updated.username }, before, after }, auditActorOf(request));
    }
    return envelope(await present(updated));
  });
}
