import { useState } from 'preact/hooks';
import { api } from '../api/client';
import type { Page, Token } from '../api/types';
import type { PageProps } from '../app';
import { BudgetList } from '../components/budget-list';
import { CopyButton } from '../components/copy-button';
import { DataTable } from '../components/data-table';
import { Field, Notice, messageOf } from '../components/field';
import { Modal } from '../components/modal';
import { Pager } from '../components/pager';
import { useLoad } from '../components/use-load';
import { dateTime, units, unitsAsUsd } from '../format';
import { loadPricing } from '../pricing';
import { TokenForm } from './token-form';

const pageSize = 10;

/** A token's status as its list shows it. */
export const statusNames: Record<number, string> = { 1: 'enabled', 2: 'disabled', 3: 'expired', 4: 'quota spent' };

/** The key as a client sends it: the token API hands keys out without their `sk-`. */
const asApiKey = (key: string) => `sk-${key}`;

/**
 * The token API as a person uses it: the list with search (name, and key with `%`) and
 * paging; create and edit every field; enable, disable, delete, batch delete; reveal and
 * copy a key, batch reveal.
 */
export function Tokens(_props: PageProps) {
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState({ keyword: '', token: '' });
  const [draft, setDraft] = useState({ keyword: '', token: '' });
  const [selected, setSelected] = useState<number[]>([]);
  const [revealed, setRevealed] = useState<Record<number, string>>({});
  const [editing, setEditing] = useState<Token | 'new' | undefined>();
  const [batchKeys, setBatchKeys] = useState<{ name: string; key: string }[] | undefined>();
  const [rowErrors, setRowErrors] = useState<Record<number, string>>({});
  const [notice, setNotice] = useState<{ kind: 'error' | 'success'; text: string } | undefined>();
  const pricing = useLoad(loadPricing, []);
  const searching = search.keyword !== '' || search.token !== '';
  const list = useLoad(
    () => api<Page<Token>>('GET', searching ? '/api/token/search' : '/api/token/', { query: { ...(searching ? search : {}), p: page, size: pageSize } }),
    [page, search.keyword, search.token],
  );
  const tokens = list.data?.items ?? [];
  const byId = new Map(tokens.map((token) => [token.id, token]));

  const run = async (action: () => Promise<string | undefined>, id?: number) => {
    setNotice(undefined);
    if (id !== undefined) setRowErrors(({ [id]: _, ...rest }) => rest);
    try {
      const done = await action();
      if (done !== undefined) setNotice({ kind: 'success', text: done });
    } catch (error) {
      if (id !== undefined) setRowErrors((previous) => ({ ...previous, [id]: messageOf(error) }));
      else setNotice({ kind: 'error', text: messageOf(error) });
    }
  };
  const setStatus = (token: Token, status: 1 | 2) =>
    run(async () => {
      await api('PUT', '/api/token/', { query: { status_only: true }, body: { id: token.id, status } });
      list.reload();
      return `${token.name} is ${statusNames[status]}.`;
    }, token.id);
  const remove = (token: Token) =>
    run(async () => {
      if (!confirm(`Delete the token ${token.name}? Clients using its key are refused from now on.`)) return undefined;
      await api('DELETE', `/api/token/${token.id}`);
      setSelected((ids) => ids.filter((id) => id !== token.id));
      list.reload();
      return `${token.name} is deleted.`;
    }, token.id);
  const reveal = (token: Token) =>
    run(async () => {
      const { key } = await api<{ key: string }>('POST', `/api/token/${token.id}/key`);
      setRevealed((previous) => ({ ...previous, [token.id]: asApiKey(key) }));
      return undefined;
    }, token.id);
  const removeSelected = () =>
    run(async () => {
      if (!confirm(`Delete the ${selected.length} selected tokens?`)) return undefined;
      const deleted = await api<number>('POST', '/api/token/batch', { body: { ids: selected } });
      setSelected([]);
      list.reload();
      return `${deleted} tokens deleted.`;
    });
  const revealSelected = () =>
    run(async () => {
      const { keys } = await api<{ keys: Record<string, string> }>('POST', '/api/token/batch/keys', { body: { ids: selected } });
      setBatchKeys(Object.entries(keys).map(([id, key]) => ({ name: byId.get(Number(id))?.name ?? `token ${id}`, key: asApiKey(key) })));
      return undefined;
    });
  const toggle = (id: number, on: boolean) => setSelected((ids) => (on ? [...ids, id] : ids.filter((other) => other !== id)));
  const quotaPerUsd = pricing.data?.quota_per_usd;

  return (
    <>
      <div class="page-head">
        <h1>Tokens</h1>
        <button type="button" class="primary" disabled={pricing.data === undefined} onClick={() => setEditing('new')}>
          New token
        </button>
      </div>
      <form
        class="filters"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          setPage(1);
          setSearch({ keyword: draft.keyword.trim(), token: draft.token.trim() });
        }}
      >
        <Field label="Name contains">
          {(control) => <input {...control} value={draft.keyword} maxLength={30} onInput={(event) => setDraft({ ...draft, keyword: event.currentTarget.value })} />}
        </Field>
        <Field label="Key" hint="Part of a key, or a masked key with % for the hidden part: abcd%wxyz.">
          {(control) => <input {...control} value={draft.token} maxLength={60} spellcheck={false} onInput={(event) => setDraft({ ...draft, token: event.currentTarget.value })} />}
        </Field>
        <div class="actions">
          <button type="submit">Search</button>
          {searching && (
            <button
              type="button"
              onClick={() => {
                setDraft({ keyword: '', token: '' });
                setSearch({ keyword: '', token: '' });
                setPage(1);
              }}
            >
              Show all
            </button>
          )}
        </div>
      </form>
      {notice !== undefined && <Notice kind={notice.kind}>{notice.text}</Notice>}
      {list.error !== undefined && <Notice kind="error">{messageOf(list.error)}</Notice>}
      {pricing.error !== undefined && <Notice kind="error">Prices could not be loaded: {messageOf(pricing.error)}</Notice>}
      <div class="bulk" aria-live="polite">
        <span>{selected.length} selected</span>
        <button type="button" disabled={selected.length === 0} onClick={revealSelected}>
          Reveal selected keys
        </button>
        <button type="button" class="danger" disabled={selected.length === 0} onClick={removeSelected}>
          Delete selected
        </button>
      </div>
      <DataTable
        caption="Your tokens"
        class="tokens"
        columns={[
          <input
            type="checkbox"
            aria-label="Select every token on this page"
            checked={tokens.length > 0 && tokens.every((token) => selected.includes(token.id))}
            onChange={(event) => setSelected(event.currentTarget.checked ? [...new Set([...selected, ...tokens.map((token) => token.id)])] : selected.filter((id) => !byId.has(id)))}
          />,
          'Name',
          'Key',
          'Status',
          'Quota left',
          'Used',
          'Budgets',
          'Group',
          'Expires',
          'Actions',
        ]}
      >
        {tokens.length === 0 && !list.loading && (
          <tr>
            <td colSpan={10}>{searching ? 'No token matches.' : 'No tokens yet: create one with New token.'}</td>
          </tr>
        )}
        {tokens.map((token) => (
          <tr key={token.id} data-token={token.name}>
            <td data-label="Select">
              <input type="checkbox" aria-label={`Select ${token.name}`} checked={selected.includes(token.id)} onChange={(event) => toggle(token.id, event.currentTarget.checked)} />
            </td>
            <td data-label="Name">{token.name}</td>
            <td data-label="Key" class="key">
              <code>{revealed[token.id] ?? asApiKey(token.key)}</code>
              {revealed[token.id] !== undefined && <CopyButton text={revealed[token.id]!} label="Copy key" />}
            </td>
            <td data-label="Status">
              <span class={`status status-${token.status}`}>{statusNames[token.status] ?? token.status}</span>
            </td>
            <td data-label="Quota left">
              {token.unlimited_quota ? 'unlimited' : quotaPerUsd === undefined ? units(token.remain_quota) : `${unitsAsUsd(token.remain_quota, quotaPerUsd)} (${units(token.remain_quota)} units)`}
            </td>
            <td data-label="Used">{quotaPerUsd === undefined ? units(token.used_quota) : unitsAsUsd(token.used_quota, quotaPerUsd)}</td>
            <td data-label="Budgets">
              <BudgetList budgets={token.budgets} quotaPerUsd={quotaPerUsd} empty="none" />
            </td>
            <td data-label="Group">{token.group === '' ? 'default' : token.group}</td>
            <td data-label="Expires">{dateTime(token.expired_time)}</td>
            <td data-label="Actions">
              <div class="row-actions">
                {revealed[token.id] === undefined ? (
                  <button type="button" class="small" onClick={() => reveal(token)}>
                    Reveal key
                  </button>
                ) : (
                  <button type="button" class="small" onClick={() => setRevealed(({ [token.id]: _, ...rest }) => rest)}>
                    Hide key
                  </button>
                )}
                <button type="button" class="small" disabled={pricing.data === undefined} onClick={() => setEditing(token)}>
                  Edit
                </button>
                {token.status === 1 ? (
                  <button type="button" class="small" onClick={() => setStatus(token, 2)}>
                    Disable
                  </button>
                ) : (
                  <button type="button" class="small" onClick={() => setStatus(token, 1)}>
                    Enable
                  </button>
                )}
                <button type="button" class="small danger" onClick={() => remove(token)}>
                  Delete
                </button>
              </div>
              {rowErrors[token.id] !== undefined && (
                <p class="field-error" role="alert">
                  {rowErrors[token.id]}
                </p>
              )}
            </td>
          </tr>
        ))}
      </DataTable>
      {list.data !== undefined && <Pager label="Token pages" page={page} pageSize={pageSize} total={list.data.total} onPage={setPage} />}
      {editing !== undefined && pricing.data !== undefined && (
        <Modal title={editing === 'new' ? 'New token' : `Edit ${editing.name}`} onClose={() => setEditing(undefined)}>
          <TokenForm
            token={editing === 'new' ? undefined : editing}
            pricing={pricing.data}
            onCancel={() => setEditing(undefined)}
            onSaved={() => {
              setNotice({ kind: 'success', text: editing === 'new' ? 'Token created. Reveal its key from the list.' : 'Changes saved.' });
              setEditing(undefined);
              if (editing === 'new') setPage(1);
              list.reload();
            }}
          />
        </Modal>
      )}
      {batchKeys !== undefined && (
        <Modal title="Keys of the selected tokens" onClose={() => setBatchKeys(undefined)}>
          <ul class="key-list">
            {batchKeys.map((entry) => (
              <li key={entry.key}>
                <span>{entry.name}</span>
                <code>{entry.key}</code>
                <CopyButton text={entry.key} />
              </li>
            ))}
          </ul>
          <CopyButton text={batchKeys.map((entry) => `${entry.name}\t${entry.key}`).join('\n')} label="Copy all" />
        </Modal>
      )}
    </>
  );
}
