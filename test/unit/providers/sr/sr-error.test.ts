import t from 'tap';
import { srSubmitError } from '../../../../providers/sr/sr-error.js';
import { upstreamAnswer } from '../../../helpers/upstream-answer.js';

const answer = upstreamAnswer;

const openAiError = (message: string, type: string, code: string | null, param: string | null = null) => JSON.stringify({ error: { message, type, param, code } });

t.test("an upstream refusal at submit is 502 with the upstream's code and param, never retried", async (t) => {
  const error = await srSubmitError(answer(400, openAiError("Invalid value: '5'. Supported values are: '4', '8', and '12'.", 'invalid_request_error', 'invalid_value', 'seconds')), false);
  t.match(error, { statusCode: 502, code: 'invalid_value', param: 'seconds', retryable: false, message: "Invalid value: '5'. Supported values are: '4', '8', and '12'." });
  const moderated = await srSubmitError(answer(400, openAiError('Your request was blocked by our moderation system.', 'invalid_request_error', 'moderation_blocked')), false);
  t.match(moderated, { statusCode: 502, code: 'moderation_blocked', param: undefined, retryable: false });
});

t.test('without a code the error type is passed, and without a body a code of our own', async (t) => {
  t.match(await srSubmitError(answer(400, openAiError('Invalid request.', 'invalid_request_error', null)), false), { statusCode: 502, code: 'invalid_request_error', message: 'Invalid request.' });
  t.match(await srSubmitError(answer(422, 'nope'), false), { statusCode: 502, code: 'upstream_invalid_request', message: /HTTP 422/ });
});

t.test('5xx, 429 and the channel’s own failures move on to the next channel', async (t) => {
  t.match(await srSubmitError(answer(500, openAiError('The server had an error', 'server_error', null)), false), { statusCode: 502, code: 'upstream_error', retryable: true });
  t.match(await srSubmitError(answer(429, openAiError('slow down', 'requests', 'rate_limit_exceeded'), { 'retry-after': '7' }), false), {
    statusCode: 429,
    retryable: true,
    headers: { 'retry-after': '7' },
  });
  t.match(await srSubmitError(answer(401, openAiError('Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key')), false), { code: 'upstream_auth_failed', retryable: true });
  t.match(await srSubmitError(answer(404, openAiError('The model does not exist.', 'invalid_request_error', 'model_not_found')), false), { statusCode: 404, retryable: true });
});

t.test('a remix of a video the upstream no longer has is 404 video_not_found on remix_from_video_id, not retried', async (t) => {
  const error = await srSubmitError(answer(404, openAiError("Video 'video_1' not found.", 'invalid_request_error', 'not_found')), true);
  t.match(error, { statusCode: 404, code: 'video_not_found', param: 'remix_from_video_id', retryable: false, message: /^remix_from_video_id: the upstream no longer has this video: Video 'video_1' not found/ });
});
