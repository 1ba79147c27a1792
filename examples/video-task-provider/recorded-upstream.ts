import { readFileSync } from 'node:fs';
import { startRecordedUpstream } from 'model-gateway/testing';

/** The recorded lifecycle bodies (fixtures/task-lifecycle.json). */
export const lifecycle = JSON.parse(readFileSync(new URL('./fixtures/task-lifecycle.json', import.meta.url), 'utf8')) as Record<string, object>;

/** DashScope's error codes by status (reference upstreams.md §4.1). */
const errorCode = (status: number) => (status === 429 ? 'Throttling' : status >= 500 ? 'InternalError' : status === 401 ? 'InvalidApiKey' : 'InvalidParameter');

/** The task API this plugin speaks to: a submission answers the recorded task, its status the recorded success; errors in the recorded error body. */
export const startTaskUpstream = () =>
  startRecordedUpstream({
    routes: [
      { method: 'POST', path: '/api/v1/services/aigc/video-generation/video-synthesis', answer: { body: lifecycle.create_response! } },
      { method: 'GET', path: /^\/api\/v1\/tasks\/[^/]+$/, answer: { body: lifecycle.succeeded! } },
    ],
    errorAnswer: (status, message) => ({ status, body: { ...lifecycle.create_error, code: errorCode(status), message } }),
  });
