import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuditTrail } from '../../core/audit/audit-trail.js';
import type { TokenView } from '../../core/tokens/token-record.js';
import type { TokenPage, TokenService } from '../../core/tokens/token-service.js';
import { parseClientInput } from '../../core/validation/parse-client-input.js';
import { signedInUser } from '../auth/route-auth.js';
import { auditActorOf } from './audit-actor.js';
import { envelope, loginRoute as login } from './management-route.js';
import { toTokenObject } from './token-object.js';
import {
  createTokenBody,
  listTokensQuery,
  searchTokensQuery,
  tokenIdParams,
  tokenIdsBody,
  updateTokenBody,
  updateTokenQuery,
} from './token-request-schemas.js';

/**
 * The nine token endpoints of spec part 1. Each change (create, an update that changes
 * anything, delete, batch delete) is on the audit trail before it is answered: the token
 * object before and after, its key masked.
 */
export async function tokenRoutes(app: FastifyInstance, options: { tokens: TokenService; audit: AuditTrail }): Promise<void> {
  const { tokens, audit } = options;
  const userId = (request: FastifyRequest) => signedInUser(request).id;
  const present = async (token: TokenView) => toTokenObject(token, tokens.plainKey(token), await tokens.budgetStatuses(token));
  const presentPage = async (page: TokenPage) => ({ ...page, items: await Promise.all(page.items.map(present)) });
  /** The token object as the trail keeps it: its settings and state, without what its budgets counted so far. */
  const snapshot = (token: TokenView) => {
    const { budgets: _counted, ...object } = toTokenObject(token, tokens.plainKey(token));
    return object;
  };
  const recordDeleted = async (request: FastifyRequest, token: TokenView) =>
    audit.record({ action: 'token.delete', target: { id: token.id, name: token.name }, before: snapshot(token), after: null }, auditActorOf(request));

  app.get('/api/token/', login, async (request) => {
    const query = parseClientInput(listTokensQuery, request.query, 'query');
    return envelope(await presentPage(await tokens.list(userId(request), query.p, query.size)));
  });

  app.get('/api/token/search', login, async (request) => {
    const query = parseClientInput(searchTokensQuery, request.query, 'query');
    return envelope(await presentPage(await tokens.search(userId(request), query.keyword, query.token, query.p, query.size)));
  });

  app.get('/api/token/:id', login, async (request) => {
    const { id } = parseClientInput(tokenIdParams, request.params, 'path');
    return envelope(await present(await tokens.get(userId(request), id)));
  });

  app.post('/api/token/', login, async (request) => {
    const token = await tokens.create(userId(request), parseClientInput(createTokenBody, request.body));
    await audit.record({ action: 'token.create', target: { id: token.id, name: token.name }, before: null, after: snapshot(token) }, auditActorOf(request));
    return envelope();
  });

  app.put('/api/token/', login, async (request) => {
    const { status_only } = parseClientInput(updateTokenQuery, request.query, 'query');
    const body = parseClientInput(updateTokenBody, request.body);
    const before = snapshot(await tokens.get(userId(request), body.id));
    const updated = await tokens.update(userId(request), body, status_only);
    const after = snapshot(updated);
    if (JSON.stringify(after) !== JSON.stringify(before)) {
      await audit.record({ action: 'token.update', target: { id: updated.id, name: updated.name }, before, after }, auditActorOf(request));
    }
    return envelope(await present(updated));
  });

  app.delete('/api/token/:id', login, async (request) => {
    const { id } = parseClientInput(tokenIdParams, request.params, 'path');
    await recordDeleted(request, await tokens.delete(userId(request), id));
    return envelope();
  });

  app.post('/api/token/batch', login, async (request) => {
    const { ids } = parseClientInput(tokenIdsBody, request.body);
    const deleted = await tokens.deleteMany(userId(request), ids);
    for (const token of deleted) await recordDeleted(request, token);
    return envelope(deleted.length);
  });

  app.post('/api/token/:id/key', login, async (request, reply) => {
    const { id } = parseClientInput(tokenIdParams, request.params, 'path');
    const key = await tokens.revealKey(userId(request), id);
    reply.header('cache-control', 'no-store');
    return envelope({ key });
  });

  app.post('/api/token/batch/keys', login, async (request, reply) => {
    const { ids } = parseClientInput(tokenIdsBody, request.body);
    const keys = await tokens.revealKeys(userId(request), ids);
    reply.header('cache-control', 'no-store');
    return envelope({ keys });
  });
}
