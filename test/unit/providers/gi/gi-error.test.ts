import t from 'tap';
import { giStatusError } from '../../../../providers/gi/gi-error.js';
import { upstreamAnswer } from '../../../helpers/upstream-answer.js';

const answer = upstreamAnswer;

const openAiError = (message: string, type: string, code: string | null, param: string | null = null) => JSON.stringify({ error: { message, type, param, code } });

t.test('a safety refusal is 400 prompt_blocked, never tried on another channel', async (t) => {
  const error = await giStatusError(answer(400, openAiError('Your request was rejected by the safety system.', 'image_generation_user_error', 'moderation_blocked')));
  t.match(error, { statusCode: 400, code: 'prompt_blocked', retryable: false, message: /safety system blocked this request: Your request was rejected/ });
  const policy = await giStatusError(answer(400, openAiError('Your request was rejected as a result of our safety system.', 'invalid_request_error', 'content_policy_violation')));
  t.match(policy, { code: 'prompt_blocked' });
});

t.test("any other 400 is the client's mistake, with the upstream's message", async (t) => {
  const error = await giStatusError(answer(400, openAiError("Invalid value: '512x512'.", 'invalid_request_error', 'invalid_value', 'size')));
  t.match(error, { statusCode: 400, code: 'upstream_invalid_request', retryable: false, message: "Invalid value: '512x512'. (invalid_request_error, invalid_value)" });
});

t.test('5xx, 429 and auth failures are retryable on another channel', async (t) => {
  t.match(await giStatusError(answer(500, openAiError('The server had an error', 'server_error', null))), { statusCode: 502, retryable: true });
  t.match(await giStatusError(answer(429, openAiError('slow down', 'requests', 'rate_limit_exceeded'), { 'retry-after': '7' })), {
    statusCode: 429,
    retryable: true,
    headers: { 'retry-after': '7' },
  });
  t.match(await giStatusError(answer(401, openAiError('Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key'))), { statusCode: 502, code: 'upstream_auth_failed', retryable: true });
  t.match(await giStatusError(answer(503, '<html>unavailable</html>')), { statusCode: 502, message: /HTTP 503/ });
});
