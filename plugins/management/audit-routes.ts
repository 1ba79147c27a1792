import type { FastifyInstance } from 'fastify';
import type { AuditTrail } from '../../core/audit/audit-trail.js';
import { parseClientInput } from '../../core/validation/parse-client-input.js';
import { requireAdmin } from '../auth/route-auth.js';
import { auditQuery } from './audit-request-schemas.js';
import { envelope, loginRoute as login } from './management-route.js';

/**
 * `GET /api/audit` (docs/routes.md), for admins: the audit trail's records, newest first, as
 * `{items, total, page, page_size}`, filtered by action, actor (`user_id`), target (an id or a
 * name) and time.
 */
export async function auditRoutes(app: FastifyInstance, options: { audit: AuditTrail }): Promise<void> {
  const { audit } = options;

  app.get('/api/audit', login, async (request) => {
    requireAdmin(request);
    const { p, size, ...filter } = parseClientInput(auditQuery, request.query, 'query');
    const found = await audit.page(filter, p, size);
    return envelope({ items: found.items, total: found.total, page: p, page_size: size });
  });
}
