import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { UsageLog } from '../../core/usage/usage-log.js';
import type { UsageFilter } from '../../core/usage/usage-log-store.js';
import { shownUsageRecord } from '../../core/usage/usage-record.js';
import { parseClientInput } from '../../core/validation/parse-client-input.js';
import { requireAdmin, signedInUser } from '../auth/route-auth.js';
import { adminLogExportQuery, adminLogQuery, ownLogExportQuery, ownLogQuery } from './log-request-schemas.js';
import { envelope, loginRoute as login } from './management-route.js';
import { exportContentType, exportStream, type UsageExportFormat } from './usage-export.js';

/** A query's filter fields, without its paging and format. */
function filterOf(query: UsageFilter & { p?: number; size?: number; format?: string }): UsageFilter {
  const { p: _page, size: _size, format: _format, ...filter } = query;
  return filter;
}

/**
 * The usage log API (docs/routes.md): a user's own records under `/api/log/self`, everyone's
 * for admins under `/api/log/`. Lists are `{items, total, page, page_size}`, newest first;
 * `channel` and `attempts` are in the records only for admins. Exports stream as they are read.
 */
export async function logRoutes(app: FastifyInstance, options: { usageLog: UsageLog }): Promise<void> {
  const { usageLog } = options;
  const { store } = usageLog;
  // Every read first writes this instance's pending records (they wait up to 100 ms for a
  // batch): a client that reads the log right after its request finds the request on it.
  app.addHook('preHandler', async () => usageLog.flush());

  const list = async (request: FastifyRequest, filter: UsageFilter, page: number, size: number) => {
    const admin = signedInUser(request).role === 'admin';
    const found = await store.page(filter, (page - 1) * size, size);
    return envelope({ items: found.items.map((record) => shownUsageRecord(record, admin)), total: found.total, page, page_size: size });
  };

  const sendExport = async (request: FastifyRequest, reply: FastifyReply, filter: UsageFilter, format: UsageExportFormat) => {
    const admin = signedInUser(request).role === 'admin';
    const records = store.scan(filter)[Symbol.asyncIterator]();
    // The first page is read before the headers go out: a store that is down answers 503.
    const first = await records.next();
    return reply
      .type(exportContentType(format))
      .header('content-disposition', `attachment; filename="usage-log.${format}"`)
      .header('cache-control', 'no-store')
      .send(exportStream(format, first, records, admin));
  };

  app.get('/api/log/self', login, async (request) => {
    const query = parseClientInput(ownLogQuery, request.query, 'query');
    return list(request, { ...filterOf(query), user_id: signedInUser(request).id }, query.p, query.size);
  });

  app.get('/api/log/self/stat', login, async (request) => {
    const query = parseClientInput(ownLogQuery, request.query, 'query');
    return envelope(await store.stat({ ...filterOf(query), user_id: signedInUser(request).id }));
  });

  app.get('/api/log/self/daily', login, async (request) => {
    const query = parseClientInput(ownLogQuery, request.query, 'query');
    return envelope(await store.daily({ ...filterOf(query), user_id: signedInUser(request).id }));
  });

  app.get('/api/log/self/export', login, async (request, reply) => {
    const query = parseClientInput(ownLogExportQuery, request.query, 'query');
    return sendExport(request, reply, { ...filterOf(query), user_id: signedInUser(request).id }, query.format);
  });

  app.get('/api/log/', login, async (request) => {
    requireAdmin(request);
    const query = parseClientInput(adminLogQuery, request.query, 'query');
    return list(request, filterOf(query), query.p, query.size);
  });

  app.get('/api/log/stat', login, async (request) => {
    requireAdmin(request);
    return envelope(await store.stat(filterOf(parseClientInput(adminLogQuery, request.query, 'query'))));
  });

  app.get('/api/log/export', login, async (request, reply) => {
    requireAdmin(request);
    const query = parseClientInput(adminLogExportQuery, request.query, 'query');
    return sendExport(request, reply, filterOf(query), query.format);
  });
}
