import { readFileSync } from 'node:fs';
import { startRecordedUpstream } from 'model-gateway/testing';

/** The upstream this plugin speaks to, answering from its recording (fixtures/chat-completion.json) and in OpenAI's error body (reference upstreams.md §2.1). */
export const startChatUpstream = () =>
  startRecordedUpstream({
    routes: [{ method: 'POST', path: '/v1/chat/completions', answer: { body: readFileSync(new URL('./fixtures/chat-completion.json', import.meta.url), 'utf8') } }],
    errorAnswer: (status, message) => ({ status, body: { error: { message, type: status === 429 ? 'requests' : 'invalid_request_error', param: null, code: null } } }),
  });
