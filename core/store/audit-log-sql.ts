import type { AuditFilter } from '../audit/audit-log-store.js';
import { auditRecordFields, type AuditAction, type AuditRecord } from '../audit/audit-record.js';
import { sqlConditions, type FilterColumns } from './usage-log-sql.js';

/**
 * What the SQLite and PostgreSQL audit trails share: the table's columns (the record's field
 * names; `before` is an SQL keyword, so every column is quoted), a filter's WHERE clause and
 * the reading of a row.
 */

/** Every column but `id`, in the order the inserts give them. */
export const auditColumns = auditRecordFields.filter((field): field is Exclude<keyof AuditRecord, 'id'> => field !== 'id');

/** The columns as SQL names them, `id` first. */
export const selectedAuditColumns = ['id', ...auditColumns].map((column) => `"${column}"`).join(', ');

const filterColumns: FilterColumns<AuditFilter> = [
  ['action', 'action', '='],
  ['user_id', 'user_id', '='],
  ['target', ['target_id', 'target_name'], '='],
  ['start_timestamp', 'created_at', '>='],
  ['end_timestamp', 'created_at', '<='],
];

/** The conditions of an audit filter (see {@link sqlConditions}). */
export function auditConditions(filter: AuditFilter, parameter: (value: unknown) => string): string {
  return sqlConditions(filterColumns, filter, parameter);
}

/** A row of either table as a record: PostgreSQL's bigints arrive as text, `before` and `after` as JSON text (SQLite) or parsed (PostgreSQL's json). */
export function auditRecordOfRow(row: Record<string, unknown>): AuditRecord {
  const json = (value: unknown): unknown => (typeof value === 'string' ? JSON.parse(value) : (value ?? null));
  return {
    id: Number(row.id),
    created_at: Number(row.created_at),
    action: String(row.action) as AuditAction,
    user_id: Number(row.user_id),
    username: String(row.username),
    ip: String(row.ip),
    source: String(row.source),
    request_id: String(row.request_id),
    target_id: String(row.target_id),
    target_name: String(row.target_name),
    before: json(row.before),
    after: json(row.after),
  };
}
