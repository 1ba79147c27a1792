import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TokenView } from '../../core/tokens/token-record.js';
import type { TokenPage, TokenService } from '../../core/tokens/token-service.js';
import { parseClientInput } from '../../core/validation/parse-client-input.js';
import { signedInUser } from '../auth/route-auth.js';
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

/** The nine token endpoints of spec part 1. */
export async function tokenRoutes(app: FastifyInstance, options: { tokens: TokenService }): Promise<void> {
  const { tokens } = options;
  const userId = (request: FastifyRequest) => signedInUser(request).id;
  const present = async (token: TokenView) => toTokenObject(token, tokens.plainKey(token), await tokens.budgetStatuses(token));
  const presentPage = async (page: TokenPage) => ({ ...page, items: await Promise.all(page.items.map(present)) });

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
    await tokens.create(userId(request), parseClientInput(createTokenBody, request.body));
    return envelope();
  });

  app.put('/api/token/', login, async (request) => {
    const { status_only } = parseClientInput(updateTokenQuery, request.query, 'query');
    const body = parseClientInput(updateTokenBody, request.body);
    return envelope(await present(await tokens.update(userId(request), body, status_only)));
  });

  app.delete('/api/token/:id', login, async (request) => {
    const { id } = parseClientInput(tokenIdParams, request.params, 'path');
    await tokens.delete(userId(request), id);
    return envelope();
  });

  app.post('/api/token/batch', login, async (request) => {
    const { ids } = parseClientInput(tokenIdsBody, request.body);
    return envelope(await tokens.deleteMany(userId(request), ids));
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
