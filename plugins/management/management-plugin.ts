import type { FastifyInstance } from 'fastify';
import type { AuditTrail } from '../../core/audit/audit-trail.js';
import type { TokenService } from '../../core/tokens/token-service.js';
import type { UserService } from '../../core/users/user-service.js';
import type { UsageLog } from '../../core/usage/usage-log.js';
import { auditRoutes } from './audit-routes.js';
import { logRoutes } from './log-routes.js';
import { tokenRoutes } from './token-routes.js';
import { userRoutes } from './user-routes.js';

/**
 * The management API under `/api`: every route declares `auth: 'login'`, so route-auth signs
 * the user in from `Authorization: Bearer <login token>` before the body is read; the admin
 * routes then check the role (`requireAdmin`). The channel routes need the loaded channels,
 * so the server registers them apart (`channelRoutes`), once the channels exist.
 */
export async function managementPlugin(app: FastifyInstance, options: { tokens: TokenService; users: UserService; usageLog: UsageLog; auditTrail: AuditTrail }): Promise<void> {
  await app.register(tokenRoutes, { tokens: options.tokens, audit: options.auditTrail });
  await app.register(userRoutes, { users: options.users, audit: options.auditTrail });
  await app.register(logRoutes, { usageLog: options.usageLog });
  await app.register(auditRoutes, { audit: options.auditTrail });
}
