import t from 'tap';
import { chatCompletionRequestSchema } from '../../../../core/contracts/chat-completion-request.js';
import { toGpRequest } from '../../../../providers/gp/gp-operations.js';

const request = (fields: Record<string, unknown>) =>
  chatCompletionRequestSchema.parse({ model: 'gp-alias', messages: [{ role: 'user', content: 'hi', cache_hint: 'keep' }], ...fields });

t.test('every field goes through, unknown ones included, with the upstream model', async (t) => {
  const body = toGpRequest(request({ temperature: 0.2, prediction: { type: 'content', content: 'x' }, metadata: { a: '1' } }), 'gpt-4.1-nano', false);
  t.strictSame(body, {
    model: 'gpt-4.1-nano',
    messages: [{ role: 'user', content: 'hi', cache_hint: 'keep' }],
    temperature: 0.2,
    prediction: { type: 'content', content: 'x' },
    metadata: { a: '1' },
  });
});

t.test('a stream always asks for usage, keeping the other stream options', async (t) => {
  t.strictSame(toGpRequest(request({ stream: true }), 'm', true).stream_options, { include_usage: true });
  t.strictSame(toGpRequest(request({ stream: true, stream_options: { include_obfuscation: false } }), 'm', true).stream_options, {
    include_obfuscation: false,
    include_usage: true,
  });
  t.notOk('stream_options' in toGpRequest(request({}), 'm', false), 'a non-stream request is left alone');
});

t.test("gx's native passthrough is left out, and the rest of extra_body goes through", async (t) => {
  const thinking = { gx: { thinking_config: { thinking_budget: 2048, include_thoughts: true } } };
  t.notOk('extra_body' in toGpRequest(request({ extra_body: thinking }), 'm', false), 'an extra_body of gx fields alone is left out whole');
  t.strictSame(toGpRequest(request({ extra_body: { ...thinking, vendor_flag: true } }), 'm', false).extra_body, { vendor_flag: true });
});
