import type { FastifyInstance } from 'fastify';
import type { TokenService } from '../../core/tokens/token-service.js';
import type { UsageLog } from '../../core/usage/usage-log.js';
import { logRoutes } from './log-routes.js';
import { tokenRoutes } from './token-routes.js';

/**
 * The management API under `/api`: every route declares `auth: 'login'`, so route-auth signs
 * the user in from `Authorization: Bearer <login token>` before the body is read.
 */
export async function managementPlugin(app: FastifyInstance, options: { tokens: TokenService; usageLog: UsageLog }): Promise<void> {
  await app.register(tokenRoutes, { tokens: options.tokens });
  await app.register(logRoutes, { usageLog: options.usageLog });
}
