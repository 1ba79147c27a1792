import { useRef, useState } from 'preact/hooks';
import { allPages, api } from '../api/client';
import type { LogRecord, Page, Token } from '../api/types';
import type { PageProps } from '../app';
import { Checkbox, Field, Notice, messageOf } from '../components/field';
import { useLoad } from '../components/use-load';
import { sendChat, newRequestId, type ChatUsage } from '../chat-stream';
import { duration, units, unitsAsUsd } from '../format';
import { loadPricing, modelsOfToken } from '../pricing';
import { Link } from '../router';

const chatRoute = 'POST /v1/chat/completions';

/** How long the playground waits for its request to reach the usage log (written in batches, off the request path). */
const logWaitMilliseconds = 10_000;

const pause = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** The request's record once the usage log has it, or undefined when it does not come in time. */
async function recordOf(requestId: string): Promise<LogRecord | undefined> {
  const until = Date.now() + logWaitMilliseconds;
  for (;;) {
    const page = await api<Page<LogRecord>>('GET', '/api/log/self', { query: { request_id: requestId } });
    if (page.items[0] !== undefined) return page.items[0];
    if (Date.now() > until) return undefined;
    await pause(400);
  }
}

/**
 * Playground: pick one of your tokens and a model it may call, send a chat (streamed), and see
 * the answer, its tokens, what it cost, and the request in the usage log.
 */
export function Playground(_props: PageProps) {
  const pricing = useLoad(loadPricing, []);
  const tokens = useLoad(() => allPages<Token>('/api/token/'), []);
  const [tokenId, setTokenId] = useState('');
  const [model, setModel] = useState('');
  const [message, setMessage] = useState('');
  const [stream, setStream] = useState(true);
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState('');
  const [usage, setUsage] = useState<ChatUsage | undefined>();
  const [requestId, setRequestId] = useState<string | undefined>();
  const [record, setRecord] = useState<LogRecord | 'waiting' | 'missing' | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [logError, setLogError] = useState<string | undefined>();
  // Keys revealed in this visit, so a second message does not reveal again (reveals are rate limited).
  const keys = useRef(new Map<number, string>());

  const usable = (tokens.data ?? []).filter((token) => token.status === 1);
  const token = usable.find((candidate) => String(candidate.id) === tokenId) ?? usable[0];
  const models = pricing.data === undefined || token === undefined ? [] : modelsOfToken(pricing.data, token).filter((entry) => entry.routes.includes(chatRoute));
  const chosenModel = models.find((entry) => entry.model.model_name === model)?.model.model_name ?? models[0]?.model.model_name;

  const send = async (event: Event) => {
    event.preventDefault();
    if (token === undefined || chosenModel === undefined) return;
    if (message.trim() === '') {
      setError('write a message to send');
      return;
    }
    const id = newRequestId();
    setBusy(true);
    setError(undefined);
    setLogError(undefined);
    setAnswer('');
    setUsage(undefined);
    setRecord(undefined);
    setRequestId(id);
    try {
      let key = keys.current.get(token.id);
      if (key === undefined) {
        key = `sk-${(await api<{ key: string }>('POST', `/api/token/${token.id}/key`)).key}`;
        keys.current.set(token.id, key);
      }
      const outcome = await sendChat({ apiKey: key, requestId: id, stream, body: { model: chosenModel, messages: [{ role: 'user', content: message }] }, onText: setAnswer });
      setUsage(outcome.usage);
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
    // A refused request is in the log too (as an error record), so it is looked up either way.
    setRecord('waiting');
    try {
      setRecord((await recordOf(id)) ?? 'missing');
    } catch (failure) {
      setRecord(undefined);
      setLogError(messageOf(failure));
    }
  };

  return (
    <>
      <h1>Playground</h1>
      {tokens.error !== undefined && <Notice kind="error">{messageOf(tokens.error)}</Notice>}
      {pricing.error !== undefined && <Notice kind="error">{messageOf(pricing.error)}</Notice>}
      {tokens.data !== undefined && usable.length === 0 && <Notice kind="info">You have no enabled token. Create one on the Tokens page first.</Notice>}
      <form class="playground" onSubmit={send}>
        <div class="row">
          <Field label="Token">
            {(control) => (
              <select {...control} value={token === undefined ? '' : String(token.id)} onChange={(event) => setTokenId(event.currentTarget.value)}>
                {usable.map((candidate) => (
                  <option key={candidate.id} value={String(candidate.id)}>
                    {candidate.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Model" hint={token !== undefined && models.length === 0 ? 'This token may call no chat model.' : undefined}>
            {(control) => (
              <select {...control} value={chosenModel ?? ''} onChange={(event) => setModel(event.currentTarget.value)}>
                {models.map((entry) => (
                  <option key={entry.model.model_name} value={entry.model.model_name}>
                    {entry.model.model_name}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <Field label="Message" error={error}>
          {(control) => <textarea {...control} rows={4} value={message} onInput={(event) => setMessage(event.currentTarget.value)} />}
        </Field>
        <Checkbox label="Stream the answer" checked={stream} onChange={setStream} />
        <div class="actions">
          <button type="submit" class="primary" disabled={busy || token === undefined || chosenModel === undefined}>
            {busy ? 'Sending…' : 'Send'}
          </button>
        </div>
      </form>
      <section class="card answer" aria-labelledby="answer-title">
        <h2 id="answer-title">Answer</h2>
        <p class="answer-text" aria-live="polite" aria-busy={busy}>
          {answer === '' ? (busy ? 'Waiting for the first words…' : 'Nothing sent yet.') : answer}
        </p>
        <dl class="facts">
          <dt>Tokens</dt>
          <dd class="usage">{usage === undefined ? '—' : `${usage.prompt_tokens} prompt, ${usage.completion_tokens} completion`}</dd>
          <dt>Cost</dt>
          <dd class="cost">
            {record === undefined || pricing.data === undefined
              ? '—'
              : record === 'waiting'
                ? 'waiting for the usage log…'
                : record === 'missing'
                  ? 'not in the usage log yet: look on the Usage page in a moment'
                  : `${unitsAsUsd(record.quota, pricing.data.quota_per_usd)} (${units(record.quota)} units), in ${duration(record.use_time_ms)}`}
          </dd>
          <dt>Request</dt>
          <dd>{requestId === undefined ? '—' : <Link to={`/usage?request_id=${encodeURIComponent(requestId)}`}>{requestId} in the usage log</Link>}</dd>
        </dl>
        {logError !== undefined && <Notice kind="error">The usage log did not answer: {logError}</Notice>}
      </section>
    </>
  );
}
