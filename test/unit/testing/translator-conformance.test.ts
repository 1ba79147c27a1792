import { readFileSync } from 'node:fs';
import t from 'tap';
import type { StreamOutput, Translator, Usage } from '../../../core/index.js';
import { runTranslatorConformance, type TranslatorCase } from '../../../core/testing/index.js';
import chatOverResponses from '../../../examples/chat-over-responses-translator/index.js';

// The translator suite must catch what breaks a client or billing: each broken translator below
// is the example translator with one fault, and fails the check that names it.

const fixture = (name: string) => readFileSync(new URL(`../../../examples/chat-over-responses-translator/fixtures/${name}`, import.meta.url), 'utf8');
const requests = JSON.parse(fixture('chat-requests.json')) as Array<{ label: string; request: Record<string, unknown> }>;
const usage: Usage = { inputTokens: 865, cachedInputTokens: 0, outputTokens: 163, reasoningTokens: 128, source: 'upstream' };
const served: StreamOutput[] = [
  { type: 'event', event: 'response.created', data: '{"type":"response.created","response":{"id":"resp_1"}}', content: false, outputCharacters: 0 },
  { type: 'event', event: 'response.output_text.delta', data: '{"type":"response.output_text.delta","output_index":0,"delta":"570"}', content: true, outputCharacters: 3 },
  { type: 'event', event: 'response.completed', data: '{"type":"response.completed","response":{"status":"completed"}}', content: true, outputCharacters: 0 },
  { type: 'usage', usage: { inputTokens: 299, cachedInputTokens: 0, outputTokens: 12, reasoningTokens: 0, source: 'upstream' } },
];
const cases: TranslatorCase[] = [
  { label: 'json', request: requests[0]!.request, answer: { body: JSON.parse(fixture('responses-answer-reasoning.json')), usage } },
  { label: 'stream', request: requests[1]!.request, streamed: { outputs: served } },
];

/** The failed checks of the suite on `translator`. */
async function failures(translator: object): Promise<string[]> {
  const report = await runTranslatorConformance({ translator, cases });
  return report.failures.map((check) => check.name);
}

const broken = (changes: Partial<Translator<'chat', 'responses'>>): Translator<'chat', 'responses'> => ({ ...chatOverResponses, ...changes });

t.test('the example translator passes every check', async (t) => {
  t.strictSame(await failures(chatOverResponses), []);
});

t.test('an answer whose usage is not the billed usage fails the usage check', async (t) => {
  const translator = broken({ answer: (...parameters) => ({ ...(chatOverResponses.answer(...parameters) as object), usage: { prompt_tokens: 0, completion_tokens: 0 } }) });
  t.strictSame(await failures(translator), ["chat (json): the answer's usage is the billed usage, exactly"]);
});

t.test('an answer id drawn at random fails the purity check', async (t) => {
  const translator = broken({ answer: (...parameters) => ({ ...(chatOverResponses.answer(...parameters) as object), id: `chatcmpl-${Math.random()}` }) });
  t.strictSame(await failures(translator), ['chat (json): answer() is pure: the same answer translates the same way']);
});

t.test('a stream that commits before the served stream carries model output fails the content check', async (t) => {
  const translator = broken({
    stream: (...parameters) => {
      const translation = chatOverResponses.stream!(...parameters);
      return { push: (output) => translation.push(output).map((out) => (out.type === 'event' ? { ...out, content: true } : out)), end: () => translation.end() };
    },
  });
  t.strictSame(await failures(translator), ["chat (stream): client events carry content exactly from the served stream's first model output on"]);
});

t.test('a stream that swallows the usage fails the pass-through check', async (t) => {
  const translator = broken({
    stream: (...parameters) => {
      const translation = chatOverResponses.stream!(...parameters);
      return { push: (output) => (output.type === 'usage' ? [] : translation.push(output)), end: () => translation.end() };
    },
  });
  t.strictSame(await failures(translator), ['chat (stream): usage outputs pass through unchanged, in order']);
});

t.test('a served request that does not ask for the stream the client asked for fails the stream check', async (t) => {
  const translator = broken({
    request: (...parameters) => {
      const { operation, request } = chatOverResponses.request(...parameters);
      return { operation, request: { ...request, stream: undefined } };
    },
  });
  t.strictSame(await failures(translator), ['chat (stream): the served request asks for a stream exactly when the client did']);
});

t.test('an export without a stream function is no translator, and nothing else is checked', async (t) => {
  const { stream: _stream, ...withoutStream } = chatOverResponses;
  t.strictSame(await failures(withoutStream), ['the default export is a translator (name, client, served, request, answer, stream)']);
});
