import { readFileSync } from 'node:fs';
import { startRecordedUpstream } from 'model-gateway/testing';

/** The upstream this plugin speaks to, streaming its recording (fixtures/chat-stream.sse) and in OpenAI's error body (reference upstreams.md §2.1). */
export const startStreamingUpstream = () =>
  startRecordedUpstream({
    routes: [{ method: 'POST', path: '/v1/chat/completions', answer: { body: readFileSync(new URL('./fixtures/chat-stream.sse', import.meta.url), 'utf8'), sse: true } }],
    errorAnswer: (status, message) => ({ status, body: { error: { message, type: status === 429 ? 'requests' : 'invalid_request_error', param: null, code: null } } }),
  });
