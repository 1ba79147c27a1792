import { useState } from 'preact/hooks';
import { api } from '../api/client';
import type { ChannelList, ChannelTestResult, ChannelView } from '../api/types';
import type { PageProps } from '../app';
import { DataTable } from '../components/data-table';
import { Field, Notice, messageOf } from '../components/field';
import { useLoad } from '../components/use-load';
import { dateTime, duration } from '../format';

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** One channel's row: its state, and a test of one model through it. */
function ChannelRow(props: { channel: ChannelView }) {
  const { channel } = props;
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
  return (
    <tr data-channel={channel.name}>
      <th scope="row" data-label="Channel">
        {channel.name} <span class="hint">{channel.plugin}</span>
      </th>
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
        <button type="button" class="small" disabled={busy || model === ''} onClick={test}>
          {busy ? 'Testing…' : 'Test'}
        </button>
        <p class="test-result" aria-live="polite">
          {error !== undefined
            ? `The test could not run: ${error}`
            : result === undefined
              ? ''
              : result.ok || result.error === null
                ? `${result.operation} answered ${result.status} in ${duration(result.latency_ms)}`
                : `${result.operation} failed with ${result.status} (${result.error.code}) after ${duration(result.latency_ms)}: ${result.error.message}`}
        </p>
      </td>
    </tr>
  );
}

/** Channels (admins): each channel's circuit, groups, recent requests, errors and latency, and a test button. */
export function Channels(_props: PageProps) {
  const channels = useLoad(() => api<ChannelList>('GET', '/api/channel/'), []);
  return (
    <>
      <div class="page-head">
        <h1>Channels</h1>
        <button type="button" onClick={channels.reload}>
          Refresh
        </button>
      </div>
      {channels.data !== undefined && (
        <p class="hint">
          Recent: the last {Math.round(channels.data.recent_window_seconds / 60)} minutes. {capitalized(channels.data.scope.note)}.
        </p>
      )}
      {channels.error !== undefined && <Notice kind="error">{messageOf(channels.error)}</Notice>}
      <DataTable caption="Channels" class="channels" columns={['Channel', 'Circuit', 'Groups', 'Priority, weight', 'Recent', 'Test']}>
        {channels.data?.items.map((channel) => (
          <ChannelRow key={channel.name} channel={channel} />
        ))}
      </DataTable>
    </>
  );
}
