import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { api, loginHeaders, withQuery } from '../api/client';
import type { LogRecord, LogStat, Page, Pricing } from '../api/types';
import type { PageProps } from '../app';
import { DataTable } from '../components/data-table';
import { Checkbox, Notice, messageOf } from '../components/field';
import { FilterForm, failedFilterOf } from '../components/filter-form';
import { Pager } from '../components/pager';
import { RowWithDetail } from '../components/row-with-detail';
import { useFilteredList } from '../components/use-filtered-list';
import { useLoad } from '../components/use-load';
import { dateTime, duration, fromDateTimeInput, units, unitsAsUsd } from '../format';
import { loadPricing, ratioOf } from '../pricing';
import { priceParts } from './models';

const pageSize = 20;

/** The record types of the usage log (the reference gateway's numbers). */
export const recordTypes: Record<number, string> = { 2: 'consume', 5: 'error', 6: 'refund' };

interface Filters {
  from: string;
  to: string;
  type: string;
  model_name: string;
  token_name: string;
  request_id: string;
  status: string;
  user_id: string;
}

/** Which filter shows the log API's error about a query parameter. */
const filterOfParameter: Record<string, keyof Filters> = {
  start_timestamp: 'from',
  end_timestamp: 'to',
  type: 'type',
  model_name: 'model_name',
  token_name: 'token_name',
  request_id: 'request_id',
  status: 'status',
  user_id: 'user_id',
};

const noFilters: Filters = { from: '', to: '', type: '', model_name: '', token_name: '', request_id: '', status: '', user_id: '' };

/** The filters as the log API's query. */
function queryOf(filters: Filters, everyone: boolean): Record<string, string | number | undefined> {
  return {
    start_timestamp: fromDateTimeInput(filters.from),
    end_timestamp: fromDateTimeInput(filters.to),
    type: filters.type,
    model_name: filters.model_name.trim(),
    token_name: filters.token_name.trim(),
    request_id: filters.request_id.trim(),
    status: filters.status.trim(),
    user_id: everyone ? filters.user_id.trim() : undefined,
  };
}

/** Downloads an export of the log: fetched with the login token (a plain link could not send it), saved as a file. */
async function download(path: string, format: 'csv' | 'jsonl'): Promise<void> {
  const response = await fetch(path, { headers: loginHeaders() });
  if (!response.ok) {
    const body = (await response.json().catch(() => undefined)) as { message?: string } | undefined;
    throw new Error(body?.message ?? `the export failed: ${response.status}`);
  }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = `usage-log.${format}`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function RecordDetail(props: { record: LogRecord; pricing: Pricing | undefined }) {
  const { record, pricing } = props;
  const priced = pricing?.models.find((model) => model.model_name === record.model_name);
  const ratio = pricing === undefined ? undefined : ratioOf(pricing, record.group);
  const facts: [string, string][] = [
    ['Request id', record.request_id],
    ['Operation', `${record.operation} (${record.client_format})`],
    ['Streamed', record.is_stream ? 'yes' : 'no'],
    ['Upstream model', record.upstream_model || '—'],
    ['Group', record.group || 'default'],
    ['Tokens', `${record.prompt_tokens} prompt (${record.cached_tokens} cached), ${record.completion_tokens} completion (${record.reasoning_tokens} reasoning)`],
    ['Usage source', record.usage_source === 'upstream' ? 'upstream: as the upstream reported it' : `${record.usage_source}: the gateway's estimate`],
    ['Ended', `${record.end_reason}${record.error_code === '' ? '' : ` (${record.error_code})`}, status ${record.status}`],
    ['Time', `${duration(record.use_time_ms)} in all, first byte after ${duration(record.first_byte_ms)}`],
  ];
  if (record.budget_overrun !== undefined && record.budget_overrun !== '') facts.push(['Past a soft budget', record.budget_overrun.split(',').join(', ')]);
  if (record.task_id !== '') facts.push(['Task', record.task_id]);
  if (record.channel !== undefined) facts.push(['Channel', record.channel || '—']);
  return (
    <div class="detail">
      <dl class="facts">
        {facts.map(([name, value]) => (
          <Fragment key={name}>
            <dt>{name}</dt>
            <dd>{value}</dd>
          </Fragment>
        ))}
        <dt>Quota</dt>
        <dd>
          {units(record.quota)} units{pricing === undefined ? '' : ` (${unitsAsUsd(record.quota, pricing.quota_per_usd)})`}: the usage at the model's price (
          {priced === undefined ? 'not in the price list now' : priceParts(priced.price, priced.billing).join(', ')}) × the group's ratio ({ratio ?? '?'}), rounded up to a whole unit.
        </dd>
      </dl>
      {record.attempts !== undefined && record.attempts.length > 0 && (
        <>
          <h3>Attempts</h3>
          <ol class="attempts">
            {record.attempts.map((attempt, index) => (
              <li key={index}>
                <code>{attempt.channel}</code> ({attempt.group || 'default'}): {attempt.outcome}
                {attempt.status === undefined ? '' : ` with ${attempt.status}`}
                {attempt.code === undefined ? '' : ` ${attempt.code}`} in {duration(attempt.milliseconds)}
                {attempt.translator === undefined ? '' : `, through ${attempt.translator}`}
              </li>
            ))}
          </ol>
        </>
      )}
    </div>
  );
}

/** Usage: the log table with filters, totals, a row's detail, and export. */
export function Usage(props: PageProps) {
  const isAdmin = props.user.role === 'admin';
  const list = useFilteredList(noFilters, { ...noFilters, request_id: props.query.get('request_id') ?? '' });
  const { page, setPage } = list;
  const [everyone, setEveryone] = useState(false);
  const [exportError, setExportError] = useState<string | undefined>();
  const pricing = useLoad(loadPricing, []);
  // The caller's own records, or (admins) everyone's: `/api/log/self…` or `/api/log/…`.
  const base = everyone ? '/api/log' : '/api/log/self';
  const listPath = everyone ? '/api/log/' : '/api/log/self';
  const query = queryOf(list.filters, everyone);
  const key = JSON.stringify([base, query, page]);
  const records = useLoad(() => api<Page<LogRecord>>('GET', listPath, { query: { ...query, p: page, size: pageSize } }), [key]);
  const totals = useLoad(() => api<LogStat>('GET', `${base}/stat`, { query }), [key]);
  const quotaPerUsd = pricing.data?.quota_per_usd;
  // A bad filter is refused with a message naming its parameter: shown beside that filter.
  const failedFilter = failedFilterOf(records.error, filterOfParameter);
  const exportAs = (format: 'csv' | 'jsonl') => {
    setExportError(undefined);
    download(withQuery(`${base}/export`, { ...query, format }), format).catch((error: unknown) => setExportError(messageOf(error)));
  };

  return (
    <>
      <h1>Usage</h1>
      <FilterForm
        list={list}
        failed={failedFilter}
        error={records.error}
        actions={
          <>
            <button type="button" onClick={() => exportAs('csv')}>
              Export CSV
            </button>
            <button type="button" onClick={() => exportAs('jsonl')}>
              Export JSONL
            </button>
          </>
        }
      >
        {(input) => (
          <>
            {input.choice('type', 'Type', Object.entries(recordTypes))}
            {input.text('model_name', 'Model')}
            {input.text('token_name', 'Token name')}
            {input.text('request_id', 'Request id')}
            {input.text('status', 'HTTP status', 'Such as 200 or 429.')}
            {isAdmin && (
              <Checkbox
                label="Everyone's requests (admin)"
                checked={everyone}
                onChange={(value) => {
                  setEveryone(value);
                  setPage(1);
                }}
              />
            )}
            {isAdmin && everyone && input.text('user_id', 'User id')}
          </>
        )}
      </FilterForm>
      {exportError !== undefined && <Notice kind="error">{exportError}</Notice>}
      {records.error !== undefined && failedFilter === undefined && <Notice kind="error">{messageOf(records.error)}</Notice>}
      {totals.data !== undefined && (
        <p class="totals" aria-live="polite">
          <strong>{totals.data.requests}</strong> requests · <strong>{quotaPerUsd === undefined ? units(totals.data.quota) : unitsAsUsd(totals.data.quota, quotaPerUsd)}</strong> ({units(totals.data.quota)} units) ·{' '}
          {totals.data.prompt_tokens} prompt and {totals.data.completion_tokens} completion tokens
        </p>
      )}
      <DataTable
        caption="Requests in the usage log, newest first"
        class="usage"
        columns={['Time', everyone && 'User', 'Token', 'Model', 'Type', 'Status', 'Tokens', 'Quota', 'Time taken', 'Detail']}
      >
        {records.data?.items.length === 0 && (
          <tr>
            <td colSpan={everyone ? 10 : 9}>No request matches.</td>
          </tr>
        )}
        {records.data?.items.map((record) => (
          <RowWithDetail
            key={record.id}
            row={{ 'data-request-id': record.request_id }}
            columns={everyone ? 10 : 9}
            open={list.open === record.id}
            onToggle={() => list.toggle(record.id)}
            detail={<RecordDetail record={record} pricing={pricing.data} />}
          >
            <td data-label="Time">{dateTime(record.created_at)}</td>
            {everyone && <td data-label="User">{record.user_id}</td>}
            <td data-label="Token">{record.token_name}</td>
            <td data-label="Model">{record.model_name}</td>
            <td data-label="Type">{recordTypes[record.type] ?? record.type}</td>
            <td data-label="Status">{record.status}</td>
            <td data-label="Tokens" class="tokens">
              {record.prompt_tokens} + {record.completion_tokens}
            </td>
            <td data-label="Quota" class="quota">
              {units(record.quota)}
              {quotaPerUsd === undefined ? '' : ` (${unitsAsUsd(record.quota, quotaPerUsd)})`}
            </td>
            <td data-label="Time taken">{duration(record.use_time_ms)}</td>
          </RowWithDetail>
        ))}
      </DataTable>
      {records.data !== undefined && <Pager label="Usage pages" page={page} pageSize={pageSize} total={records.data.total} onPage={setPage} />}
    </>
  );
}
