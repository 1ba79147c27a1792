import type { FastifyInstance } from 'fastify';
import { formatConfigProblem } from '../../core/config/config-error.js';
import { requireAdmin } from '../auth/route-auth.js';
import { auditActorOf } from './audit-actor.js';
import type { ReloadCause, ReloadReport } from '../../core/reload/gateway-state.js';
import { envelope, loginRoute as login } from './management-route.js';

/**
 * `POST /api/config/reload`, for admins: re-reads this instance's config file and swaps what
 * can change, then asks every other worker and instance on the store to reload its own file.
 * Answers this instance's report: what changed, what needs a restart; a file that fails a
 * check answers 422 with each problem's path and line, and nothing changes.
 */
export async function configReloadRoutes(app: FastifyInstance, options: { reloader: { reloadEverywhere(cause: ReloadCause): Promise<ReloadReport> } }): Promise<void> {
  app.post('/api/config/reload', login, async (request, reply) => {
    const admin = requireAdmin(request);
    const report = await options.reloader.reloadEverywhere({ via: 'api', user_id: admin.id, address: request.ip, actor: auditActorOf(request) });
    if (report.status === 'refused') {
      const { problems } = report;
      const message = `the config file fails ${problems.length === 1 ? 'a check' : `${problems.length} checks`} and nothing changed: ${problems.map(formatConfigProblem).join('; ')}`;
      return reply.code(422).send({ success: false, message, data: report });
    }
    return envelope(report);
  });
}
