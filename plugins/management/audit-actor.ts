import type { FastifyRequest } from 'fastify';
import type { AuditActor } from '../../core/audit/audit-record.js';
import { signedInUser } from '../auth/route-auth.js';

/**
 * The actor of a change made through a management route (the console's included): the user
 * its login token signed in, the client's address as fastify reads it (`request.ip`, which
 * honours `server.trust_proxy`), and the request's id. Only for a route declared `auth: 'login'`.
 */
export function auditActorOf(request: FastifyRequest): AuditActor {
  const user = signedInUser(request);
  return { user_id: user.id, username: user.username, ip: request.ip, source: 'api', request_id: String(request.id) };
}
