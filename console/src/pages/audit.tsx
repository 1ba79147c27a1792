import { api } from '../api/client';
import type { Page } from '../api/types';
// The gateway's own list and record shape (a module without imports, bundled as it is).
import { auditActions, type AuditRecord } from '../../../core/audit/audit-record';
import type { PageProps } from '../app';
import { DataTable } from '../components/data-table';
import { Notice, messageOf } from '../components/field';
import { FilterForm, failedFilterOf } from '../components/filter-form';
import { Pager } from '../components/pager';
import { RowWithDetail } from '../components/row-with-detail';
import { useFilteredList } from '../components/use-filtered-list';
import { useLoad } from '../components/use-load';
import { dateTime, fromDateTimeInput } from '../format';

const pageSize = 20;

interface Filters {
  from: string;
  to: string;
  action: string;
  user_id: string;
  target: string;
}

/** Which filter shows the audit API's error about a query parameter. */
const filterOfParameter: Record<string, keyof Filters> = { start_timestamp: 'from', end_timestamp: 'to', action: 'action', user_id: 'user_id', target: 'target' };

const noFilters: Filters = { from: '', to: '', action: '', user_id: '', target: '' };

/** A JSON value in one line, as a changed field shows it. */
const shown = (value: unknown): string => (value === undefined ? '—' : JSON.stringify(value));

/** The top-level fields whose value differs between before and after (every field of a creation or a deletion). */
function changedFields(record: AuditRecord): [string, unknown, unknown][] {
  const before = (record.before ?? {}) as Record<string, unknown>;
  const after = (record.after ?? {}) as Record<string, unknown>;
  if (typeof before !== 'object' || typeof after !== 'object') return [['value', record.before, record.after]];
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return names.filter((name) => JSON.stringify(before[name]) !== JSON.stringify(after[name])).map((name) => [name, before[name], after[name]]);
}

function AuditDetail(props: { record: AuditRecord }) {
  const { record } = props;
  const changed = changedFields(record);
  return (
    <div class="detail">
      <dl class="facts">
        <dt>Request id</dt>
        <dd>{record.request_id || '—'}</dd>
        <dt>Through</dt>
        <dd>{record.source}</dd>
        <dt>Target id</dt>
        <dd>{record.target_id}</dd>
      </dl>
      <h3>Changed fields</h3>
      {changed.length === 0 ? (
        <p>None.</p>
      ) : (
        <ul class="changes">
          {changed.map(([name, before, after]) => (
            <li key={name}>
              <code>{name}</code>: {shown(before)} → {shown(after)}
            </li>
          ))}
        </ul>
      )}
      <div class="before-after">
        <div>
          <h3>Before</h3>
          <pre>{JSON.stringify(record.before, null, 2)}</pre>
        </div>
        <div>
          <h3>After</h3>
          <pre>{JSON.stringify(record.after, null, 2)}</pre>
        </div>
      </div>
    </div>
  );
}

/** Audit (admins): the trail of token, user, channel and config changes, with filters and a row's before and after. */
export function Audit(_props: PageProps) {
  const list = useFilteredList(noFilters);
  const { filters, page } = list;
  const query = {
    start_timestamp: fromDateTimeInput(filters.from),
    end_timestamp: fromDateTimeInput(filters.to),
    action: filters.action,
    user_id: filters.user_id.trim(),
    target: filters.target.trim(),
  };
  const records = useLoad(() => api<Page<AuditRecord>>('GET', '/api/audit', { query: { ...query, p: page, size: pageSize } }), [JSON.stringify([query, page])]);
  // A bad filter is refused with a message naming its parameter: shown beside that filter.
  const failedFilter = failedFilterOf(records.error, filterOfParameter);

  return (
    <>
      <h1>Audit</h1>
      <FilterForm list={list} failed={failedFilter} error={records.error}>
        {(input) => (
          <>
            {input.choice('action', 'Action', auditActions.map((action) => [action, action]))}
            {input.text('user_id', 'By user id', 'The admin or user who made the change; 0 for the gateway itself.')}
            {input.text('target', 'Target', 'A token or user id, a username, a token or channel name.')}
          </>
        )}
      </FilterForm>
      {records.error !== undefined && failedFilter === undefined && <Notice kind="error">{messageOf(records.error)}</Notice>}
      <DataTable caption="Changes on the audit trail, newest first" class="audit" columns={['Time', 'By', 'Address', 'Action', 'Target', 'Detail']}>
        {records.data?.items.length === 0 && (
          <tr>
            <td colSpan={6}>No change matches.</td>
          </tr>
        )}
        {records.data?.items.map((record) => (
          <RowWithDetail key={record.id} row={{ 'data-audit-id': record.id }} columns={6} open={list.open === record.id} onToggle={() => list.toggle(record.id)} detail={<AuditDetail record={record} />}>
            <td data-label="Time">{dateTime(record.created_at)}</td>
            <td data-label="By">{record.user_id === 0 ? `the gateway (${record.source})` : `${record.username} (${record.user_id})`}</td>
            <td data-label="Address">{record.ip || '—'}</td>
            <td data-label="Action">
              <code>{record.action}</code>
            </td>
            <td data-label="Target">{record.target_name === '' || record.target_name === record.target_id ? record.target_id : `${record.target_name} (${record.target_id})`}</td>
          </RowWithDetail>
        ))}
      </DataTable>
      {records.data !== undefined && <Pager label="Audit pages" page={page} pageSize={pageSize} total={records.data.total} onPage={list.setPage} />}
    </>
  );
}
