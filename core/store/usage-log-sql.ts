import type { UsageDay, UsageFilter } from '../usage/usage-log-store.js';
import { usageRecordFields, type UsageAttempt, type UsageRecord, type UsageType } from '../usage/usage-record.js';

/**
 * What the SQLite and PostgreSQL usage logs share: the table's columns (the record's field
 * names; `group` quoted, since it is an SQL keyword), the WHERE clause of a filter and the
 * reading of a row. Each driver writes its own placeholders (`?`, `$1`) and types. The WHERE
 * clause's pieces serve the audit trail's tables too (core/store/audit-log-sql.ts).
 */

/** Every column but `id`, in the order the inserts give them: the record's fields. */
export const usageColumns = usageRecordFields.filter((field): field is Exclude<keyof UsageRecord, 'id'> => field !== 'id');

/** A column as SQL names it. */
export const sqlColumn = (column: string): string => (column === 'group' ? '"group"' : column);

/**
 * A filter's fields, the column each compares (or several, any of which may match), and how:
 * what {@link sqlConditions} turns into a WHERE clause, for the usage log and the audit trail.
 */
export type FilterColumns<Filter> = ReadonlyArray<[keyof Filter, string | readonly string[], '=' | '>=' | '<=']>;

/** The usage filter's fields in the columns they compare, and how. */
const filterColumns: FilterColumns<UsageFilter> = [
  ['user_id', 'user_id', '='],
  ['start_timestamp', 'created_at', '>='],
  ['end_timestamp', 'created_at', '<='],
  ['type', 'type', '='],
  ['model_name', 'model_name', '='],
  ['token_name', 'token_name', '='],
  ['request_id', 'request_id', '='],
  ['status', 'status', '='],
];

/**
 * The conditions of `filter` (`user_id = ? AND created_at >= ?`, or `1 = 1` for none), each
 * value through `parameter`, which adds it to the statement's values and returns its placeholder.
 */
export function sqlConditions<Filter extends object>(columns: FilterColumns<Filter>, filter: Filter, parameter: (value: unknown) => string): string {
  const conditions: string[] = [];
  for (const [field, column, comparison] of columns) {
    const value = filter[field];
    if (value === undefined) continue;
    if (typeof column === 'string') conditions.push(`${column} ${comparison} ${parameter(value)}`);
    else conditions.push(`(${column.map((name) => `${name} ${comparison} ${parameter(value)}`).join(' OR ')})`);
  }
  return conditions.length === 0 ? '1 = 1' : conditions.join(' AND ');
}

/** The conditions of a usage filter (see {@link sqlConditions}). */
export function usageConditions(filter: UsageFilter, parameter: (value: unknown) => string): string {
  return sqlConditions(filterColumns, filter, parameter);
}

/**
 * The WHERE conditions `conditionsOf` builds, with one driver's placeholders (`placeholder` of
 * each value's position from 1: `?` on SQLite, `$n` on PostgreSQL), and the values in order.
 */
export function whereClause(conditionsOf: (parameter: (value: unknown) => string) => string, placeholder: (position: number) => string): { conditions: string; values: unknown[] } {
  const values: unknown[] = [];
  const conditions = conditionsOf((value) => {
    values.push(value);
    return placeholder(values.length);
  });
  return { conditions, values };
}

/** A row of either table as a record: PostgreSQL's bigints arrive as text, SQLite's booleans as 0 or 1, `attempts` as JSON text (SQLite) or parsed (PostgreSQL's json). */
export function usageRecordOfRow(row: Record<string, unknown>): UsageRecord {
  return {
    id: Number(row.id),
    created_at: Number(row.created_at),
    type: Number(row.type) as UsageType,
    user_id: Number(row.user_id),
    token_id: Number(row.token_id),
    token_name: String(row.token_name),
    model_name: String(row.model_name),
    upstream_model: String(row.upstream_model),
    operation: String(row.operation),
    client_format: String(row.client_format),
    group: String(row.group),
    is_stream: row.is_stream === true || row.is_stream === 1,
    prompt_tokens: Number(row.prompt_tokens),
    completion_tokens: Number(row.completion_tokens),
    cached_tokens: Number(row.cached_tokens),
    reasoning_tokens: Number(row.reasoning_tokens),
    quota: Number(row.quota),
    usage_source: row.usage_source === 'upstream' ? 'upstream' : 'estimated',
    status: Number(row.status),
    error_code: String(row.error_code),
    end_reason: String(row.end_reason),
    // Rows written before budgets had no such column: their migration gave them ''.
    budget_overrun: String(row.budget_overrun ?? ''),
    use_time_ms: Number(row.use_time_ms),
    first_byte_ms: Number(row.first_byte_ms),
    request_id: String(row.request_id),
    task_id: String(row.task_id),
    channel: String(row.channel),
    attempts: (typeof row.attempts === 'string' ? JSON.parse(row.attempts) : (row.attempts ?? [])) as UsageAttempt[],
  };
}

/** A row of a `daily` query (`day`, `model_name` and the totals, numbers as text on PostgreSQL) as a day's totals. */
export function usageDayOfRow(row: Record<string, unknown>): UsageDay {
  return {
    day: String(row.day),
    model_name: String(row.model_name),
    requests: Number(row.requests),
    quota: Number(row.quota),
    prompt_tokens: Number(row.prompt_tokens),
    completion_tokens: Number(row.completion_tokens),
  };
}
