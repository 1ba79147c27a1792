import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { api, ApiError, loginHeaders, withQuery } from '../api/client';
import type { LogRecord, LogStat, Page, Pricing } from '../api/types';
import type { PageProps } from '../app';
import { DataTable } from '../components/data-table';
import { Checkbox, Field, Notice, messageOf } from '../components/field';
import { Pager } from '../components/pager';
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
  const fromLink = { ...noFilters, request_id: props.query.get('request_id') ?? '' };
  const [draft, setDraft] = useState<Filters>(fromLink);
  const [filters, setFilters] = useState<Filters>(fromLink);
  const [everyone, setEveryone] = useState(false);
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<number | undefined>();
  const [exportError, setExportError] = useState<string | undefined>();
  const pricing = useLoad(loadPricing, []);
  // The caller's own records, or (admins) everyone's: `/api/log/self…` or `/api/log/…`.
  const base = everyone ? '/api/log' : '/api/log/self';
  const listPath = everyone ? '/api/log/' : '/api/log/self';
  const query = queryOf(filters, everyone);
  const key = JSON.stringify([base, query, page]);
  const records = useLoad(() => api<Page<LogRecord>>('GET', listPath, { query: { ...query, p: page, size: pageSize } }), [key]);
  const totals = useLoad(() => api<LogStat>('GET', `${base}/stat`, { query }), [key]);
  const quotaPerUsd = pricing.data?.quota_per_usd;
  // A bad filter is refused with a message naming its parameter: shown beside that filter.
  const failedFilter = records.error instanceof ApiError && records.error.field !== undefined ? filterOfParameter[records.error.field] : undefined;
  const errorOf = (name: keyof Filters) => (failedFilter === name ? messageOf(records.error) : undefined);
  const edit = (changes: Partial<Filters>) => setDraft((previous) => ({ ...previous, ...changes }));
  const text = (name: keyof Filters, label: string, hint?: string) => (
    <Field label={label} hint={hint} error={errorOf(name)}>
      {(control) => <input {...control} value={draft[name]} onInput={(event) => edit({ [name]: event.currentTarget.value })} />}
    </Field>
  );
  const exportAs = (format: 'csv' | 'jsonl') => {
    setExportError(undefined);
    download(withQuery(`${base}/export`, { ...query, format }), format).catch((error: unknown) => setExportError(messageOf(error)));
  };

  return (
    <>
      <h1>Usage</h1>
      <form
        class="filters"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          setPage(1);
          setOpen(undefined);
          setFilters(draft);
        }}
      >
        <Field label="From" error={errorOf('from')}>{(control) => <input {...control} type="datetime-local" value={draft.from} onInput={(event) => edit({ from: event.currentTarget.value })} />}</Field>
        <Field label="To" error={errorOf('to')}>{(control) => <input {...control} type="datetime-local" value={draft.to} onInput={(event) => edit({ to: event.currentTarget.value })} />}</Field>
        <Field label="Type" error={errorOf('type')}>
          {(control) => (
            <select {...control} value={draft.type} onChange={(event) => edit({ type: event.currentTarget.value })}>
              <option value="">any</option>
              {Object.entries(recordTypes).map(([value, name]) => (
                <option key={value} value={value}>
                  {name}
                </option>
              ))}
            </select>
          )}
        </Field>
        {text('model_name', 'Model')}
        {text('token_name', 'Token name')}
        {text('request_id', 'Request id')}
        {text('status', 'HTTP status', 'Such as 200 or 429.')}
        {isAdmin && <Checkbox label="Everyone's requests (admin)" checked={everyone} onChange={(value) => {
              setEveryone(value);
              setPage(1);
            }} />}
        {isAdmin && everyone && text('user_id', 'User id')}
        <div class="actions">
          <button type="submit" class="primary">
            Apply filters
          </button>
          <button
            type="button"
            onClick={() => {
              setDraft(noFilters);
              setFilters(noFilters);
              setPage(1);
            }}
          >
            Clear
          </button>
          <button type="button" onClick={() => exportAs('csv')}>
            Export CSV
          </button>
          <button type="button" onClick={() => exportAs('jsonl')}>
            Export JSONL
          </button>
        </div>
      </form>
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
          <Fragment key={record.id}>
            <tr data-request-id={record.request_id}>
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
              <td data-label="Detail">
                <button type="button" class="small" aria-expanded={open === record.id} onClick={() => setOpen(open === record.id ? undefined : record.id)}>
                  {open === record.id ? 'Hide' : 'Details'}
                </button>
              </td>
            </tr>
            {open === record.id && (
              <tr class="detail-row">
                <td colSpan={everyone ? 10 : 9}>
                  <RecordDetail record={record} pricing={pricing.data} />
                </td>
              </tr>
            )}
          </Fragment>
        ))}
      </DataTable>
      {records.data !== undefined && <Pager label="Usage pages" page={page} pageSize={pageSize} total={records.data.total} onPage={setPage} />}
    </>
  );
}
