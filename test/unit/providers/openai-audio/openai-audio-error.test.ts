import t from 'tap';
import { describeOpenAiAudioError, openAiAudioErrorToGatewayError, readOpenAiAudioError } from '../../../../providers/openai-audio/openai-audio-error.js';

t.test("describeOpenAiAudioError reads OpenAI's error body", async (t) => {
  const body = JSON.stringify({ error: { message: "Invalid file format. Supported formats: ['flac', 'm4a']", type: 'invalid_request_error', param: null, code: null } });
  t.equal(describeOpenAiAudioError(body), "Invalid file format. Supported formats: ['flac', 'm4a'] (invalid_request_error)");
  t.equal(describeOpenAiAudioError(JSON.stringify({ error: { message: '', type: 'server_error', param: null, code: null } })), 'server_error');
  t.equal(describeOpenAiAudioError('<html>bad gateway</html>'), undefined);
  t.equal(describeOpenAiAudioError('{"detail":"nope"}'), undefined);
});

t.test('an error body with HTTP 200 is judged by its type and code', async (t) => {
  t.match(openAiAudioErrorToGatewayError({ message: 'slow down', type: 'requests', code: 'rate_limit_exceeded' }), { statusCode: 429, retryable: true });
  t.match(openAiAudioErrorToGatewayError({ message: 'bad', type: 'invalid_request_error', code: null }), { statusCode: 400, retryable: false });
  t.match(openAiAudioErrorToGatewayError({ message: 'which model', type: 'invalid_request_error', code: 'model_not_found' }), { statusCode: 404, retryable: true });
  t.match(openAiAudioErrorToGatewayError({ message: 'broken' }), { statusCode: 502, retryable: true });
});

t.test('readOpenAiAudioError finds error bodies only', async (t) => {
  t.match(readOpenAiAudioError({ error: { message: 'x', type: 'server_error' } }), { message: 'x' });
  t.match(readOpenAiAudioError({ error: 'plain text' }), { message: 'plain text' });
  t.equal(readOpenAiAudioError({ text: 'Hello.' }), undefined);
  t.equal(readOpenAiAudioError({ error: null }), undefined);
});
