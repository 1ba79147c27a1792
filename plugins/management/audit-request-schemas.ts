import { z } from 'zod';
import { auditActions } from '../../core/audit/audit-record.js';
import { optionalQueryValue, orderedTimes, queryText, unixSeconds } from './log-request-schemas.js';
import { pageFields, positiveIntegerText } from './query-fields.js';

/** GET /api/audit: the filters (each optional; an empty value is none) and the paging of /api/log/. */
export const auditQuery = orderedTimes({
  action: optionalQueryValue(z.enum(auditActions, { error: `expected one of ${auditActions.join(', ')}` })),
  user_id: optionalQueryValue(positiveIntegerText),
  target: optionalQueryValue(queryText(200)),
  start_timestamp: optionalQueryValue(unixSeconds),
  end_timestamp: optionalQueryValue(unixSeconds),
  ...pageFields,
});
