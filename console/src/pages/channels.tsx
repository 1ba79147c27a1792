import { useState } from 'preact/hooks';
import { api } from '../api/client';
import type { ChannelList, ChannelTestResult, ChannelView } from '../api/types';
import type { PageProps } from '../app';
import { DataTable } from '../components/data-table';
import { Field, Notice, messageOf } from '../components/field';
import { Modal } from '../components/modal';
import { useLoad } from '../components/use-load';
import { dateTime, duration } from '../format';
import { ChannelForm } from './channel-form';

type PageNotice = { kind: 'error' | 'success'; text: string };

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** One channel's row: its state, a test of one model through it, and what an admin may change of it. */
function ChannelRow(props: { channel: ChannelView; onEdit: () => void; onChanged: (notice: PageNotice) => void }) {
  const { channel, onChanged } = props;
  const recent = channel.recent;
  const [model, setModel] = useState(channel.models[0] ?? '');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<ChannelTestResult | undefined>();
  const [error, setError] = useState<string | undefined>();
  const test = async () => {
    setBusy(true);
    setError(undefined);
    setResult(undefined);
    try {
      setResult(await api<ChannelTestResult>('POST', '/api/channel/test', { body: { name: channel.name, model } }));
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  };
  const setEnabled = async (enabled: boolean) => {
    try {
      await api('PUT', '/api/channel/', { body: { name: channel.name, enabled } });
      onChanged({ kind: 'success', text: enabled ? `${channel.name} is enabled: it serves again.` : `${channel.name} is disabled: requests under way finish, new ones go to other channels.` });
    } catch (failure) {
      onChanged({ kind: 'error', text: messageOf(failure) });
    }
  };
  const remove = async () => {
    if (!confirm(`Delete the channel ${channel.name}? Requests under way finish on it; new ones go to other channels.`)) return;
    try {
      await api('DELETE', `/api/channel/${encodeURIComponent(channel.name)}`);
      onChanged({ kind: 'success', text: `${channel.name} is deleted.` });
    } catch (failure) {
      onChanged({ kind: 'error', text: messageOf(failure) });
    }
  };
  return (
    <tr data-channel={channel.name} class={channel.enabled ? undefined : 'disabled'}>
      <th scope="row" data-label="Channel">
        {channel.name} <span class="hint">{channel.plugin}</span>
      </th>
      <td data-label="Source">
        <span class="hint">{channel.source === 'file' ? 'config file' : 'console'}</span>{' '}
        <span class={`status status-${channel.enabled ? 1 : 2}`}>{channel.enabled ? 'enabled' : 'disabled'}</span>
      </td>
      <td data-label="Circuit">
        <span class={`circuit circuit-${channel.circuit}`}>{channel.circuit}</span>
      </td>
      <td data-label="Groups">{channel.groups.join(', ')}</td>
      <td data-label="Priority, weight">
        {channel.priority}, {channel.weight}
      </td>
      <td data-label="Recent" class="recent">
        {recent.requests} requests, {recent.errors} errors{recent.refused > 0 ? `, ${recent.refused} refused` : ''}, p50 {duration(recent.p50_latency_ms)}
        {recent.last_error !== null && (
          <span class="hint">
            {' '}
            last error {recent.last_error.code} at {dateTime(recent.last_error.at)}
          </span>
        )}
      </td>
      <td data-label="Test" class="channel-test">
        <Field label={`Model to test on ${channel.name}`}>
          {(control) => (
            <select {...control} value={model} onChange={(event) => setModel(event.currentTarget.value)}>
              {channel.models.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <button type="button" class="small" disabled={busy || model === '' || !channel.enabled} onClick={test}>
          {busy ? 'Testing…' : 'Test'}
        </button>
        <p class="test-result" aria-live="polite">
          {!channel.enabled
            ? 'Enable the channel to test it.'
            : error !== undefined
              ? `The test could not run: ${error}`
              : result === undefined
                ? ''
                : result.ok || result.error === null
                  ? `${result.operation} answered ${result.status} in ${duration(result.latency_ms)}`
                  : `${result.operation} failed with ${result.status} (${result.error.code}) after ${duration(result.latency_ms)}: ${result.error.message}`}
        </p>
      </td>
      <td data-label="Actions">
        {channel.enabled ? (
          <button type="button" class="small danger" onClick={() => setEnabled(false)}>
            Disable
          </button>
        ) : (
          <button type="button" class="small" onClick={() => setEnabled(true)}>
            Enable
          </button>
        )}{' '}
        {channel.source === 'store' ? (
          <>
            <button type="button" class="small" onClick={props.onEdit}>
              Edit
            </button>{' '}
            <button type="button" class="small danger" onClick={remove}>
              Delete
            </button>
          </>
        ) : (
          <span class="hint">edited in the config file</span>
        )}
      </td>
    </tr>
  );
}

/**
 * Channels (admins): every channel, the config file's and those created here, with its circuit,
 * groups, recent requests, errors and latency, a test button, enabling and disabling, and
 * creating, editing and deleting the channels created here (the config file stays the source
 * of truth of its own).
 */
export function Channels(_props: PageProps) {
  const channels = useLoad(() => api<ChannelList>('GET', '/api/channel/'), []);
  const [notice, setNotice] = useState<PageNotice | undefined>();
  const [editing, setEditing] = useState<ChannelView | 'new' | undefined>();
  const changed = (next: PageNotice) => {
    setNotice(next);
    channels.reload();
  };
  return (
    <>
      <div class="page-head">
        <h1>Channels</h1>
        <div class="head-actions">
          <button type="button" class="primary" onClick={() => setEditing('new')}>
            New channel
          </button>{' '}
          <button type="button" onClick={channels.reload}>
            Refresh
          </button>
        </div>
      </div>
      {channels.data !== undefined && (
        <p class="hint">
          Recent: the last {Math.round(channels.data.recent_window_seconds / 60)} minutes. {capitalized(channels.data.scope.note)}.
        </p>
      )}
      {notice !== undefined && <Notice kind={notice.kind}>{notice.text}</Notice>}
      {channels.error !== undefined && <Notice kind="error">{messageOf(channels.error)}</Notice>}
      <DataTable caption="Channels" class="channels" columns={['Channel', 'Source', 'Circuit', 'Groups', 'Priority, weight', 'Recent', 'Test', 'Actions']}>
        {channels.data?.items.map((channel) => (
          <ChannelRow key={channel.name} channel={channel} onEdit={() => setEditing(channel)} onChanged={changed} />
        ))}
      </DataTable>
      {editing !== undefined && (
        <Modal title={editing === 'new' ? 'New channel' : `Channel ${editing.name}`} onClose={() => setEditing(undefined)}>
          <ChannelForm
            channel={editing === 'new' ? undefined : editing}
            onCancel={() => setEditing(undefined)}
            onSaved={(saved) => {
              setEditing(undefined);
              changed({ kind: 'success', text: editing === 'new' ? `${saved.name} is created${saved.enabled ? ' and serving' : ' (disabled)'}.` : `${saved.name} is saved.` });
            }}
          />
        </Modal>
      )}
    </>
  );
}
