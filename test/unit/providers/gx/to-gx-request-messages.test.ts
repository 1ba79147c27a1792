import t from 'tap';
import { GatewayError } from '../../../../core/index.js';
import { translate } from './fixtures/gx-request-input.js';

const stub = 'skip_thought_signature_validator';

t.test('system and developer messages become the system instruction, one text part each, in order', async (t) => {
  const { body } = translate({
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'hi' },
      { role: 'developer', content: [{ type: 'text', text: 'Answer in French.' }] },
    ],
  });
  t.strictSame(body.systemInstruction, { parts: [{ text: 'Be brief.' }, { text: 'Answer in French.' }] });
  t.strictSame(body.contents, [{ role: 'user', parts: [{ text: 'hi' }] }]);
});

t.test('assistant becomes model, user stays user, and same-role neighbours are not merged', async (t) => {
  const { body } = translate({
    messages: [
      { role: 'user', content: 'one' },
      { role: 'user', content: 'two' },
      { role: 'assistant', content: 'three' },
    ],
  });
  t.strictSame(body.contents, [
    { role: 'user', parts: [{ text: 'one' }] },
    { role: 'user', parts: [{ text: 'two' }] },
    { role: 'model', parts: [{ text: 'three' }] },
  ]);
});

t.test('messages that end up without parts are left out', async (t) => {
  const { body } = translate({
    messages: [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: '' },
      { role: 'assistant', content: null },
      { role: 'system', content: '' },
      { role: 'user', content: 'again' },
    ],
  });
  t.strictSame(body.contents, [
    { role: 'user', parts: [{ text: 'hi' }] },
    { role: 'user', parts: [{ text: 'again' }] },
  ]);
  t.notOk('systemInstruction' in body);
});

/** A question and the assistant turn that answered it with two parallel weather calls; `fields` add to that turn. */
const weatherCalls = (fields: Record<string, unknown> = {}, extraCalls: unknown[] = []) => [
  { role: 'user', content: 'weather in SF and NYC?' },
  {
    role: 'assistant',
    content: 'Checking.',
    tool_calls: [
      { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"location":"San Francisco"}' } },
      { id: 'call_2', type: 'function', function: { name: 'weather', arguments: '{"location":"New York"}' } },
      ...extraCalls,
    ],
    ...fields,
  },
];

t.test('assistant tool calls become functionCall parts after its text, the first with the stub thought signature', async (t) => {
  const { body } = translate({ messages: weatherCalls({}, [{ id: 'call_3', type: 'function', function: { name: 'time', arguments: '' } }]) });
  t.strictSame((body.contents as unknown[])[1], {
    role: 'model',
    parts: [
      { text: 'Checking.' },
      { functionCall: { name: 'weather', args: { location: 'San Francisco' } }, thoughtSignature: stub },
      { functionCall: { name: 'weather', args: { location: 'New York' } } },
      { functionCall: { name: 'time', args: {} } },
    ],
  });
});

t.test('signatures an assistant message brings back in reasoning_details go on the parts they came from, instead of the stub', async (t) => {
  const reasoningDetails = [
    { type: 'reasoning.text', text: 'another gateway’s kind', signature: 'not-gx' },
    { type: 'reasoning.encrypted', data: 'c2lnLWNhbGwtMg==', id: 'call_2' },
    { type: 'reasoning.encrypted', data: 'c2lnLXRleHQ=' },
  ];
  const { body } = translate({ messages: [...weatherCalls({ reasoning_details: reasoningDetails }), { role: 'tool', tool_call_id: 'call_1', content: '{"sky":"clear"}' }] });
  t.strictSame((body.contents as unknown[])[1], {
    role: 'model',
    parts: [
      { text: 'Checking.', thoughtSignature: 'c2lnLXRleHQ=' },
      { functionCall: { name: 'weather', args: { location: 'San Francisco' } }, thoughtSignature: stub },
      { functionCall: { name: 'weather', args: { location: 'New York' } }, thoughtSignature: 'c2lnLWNhbGwtMg==' },
    ],
  });
});

t.test('invalid JSON in tool call arguments is a 400 naming the field', async (t) => {
  const call = (argumentsText: string) =>
    translate({
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: argumentsText } }] },
      ],
    });
  const error = t.throws(() => call('{"location": "San')) as unknown as GatewayError;
  t.ok(GatewayError.is(error));
  t.equal(error.statusCode, 400);
  t.equal(error.param, 'messages[1].tool_calls[0].function.arguments');
  t.match(error.message, /invalid JSON.*weather/);
  t.throws(() => call('[1, 2]'), { name: 'GatewayError', statusCode: 400, message: /expected a JSON object/ });
});

t.test('tool results join the previous user content, or open one after a model turn', async (t) => {
  const { body } = translate({
    messages: [
      { role: 'user', content: 'weather in SF and NYC?' },
      {
        role: 'assistant',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"location":"SF"}' } },
          { id: 'call_2', type: 'function', function: { name: 'weather', arguments: '{"location":"NYC"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"temperature": 18}' },
      { role: 'tool', tool_call_id: 'call_2', content: '{"temperature": 25}' },
    ],
  });
  const contents = body.contents as { role: string; parts: unknown[] }[];
  t.equal(contents.length, 3);
  t.strictSame(contents[2], {
    role: 'user',
    parts: [
      { functionResponse: { name: 'weather', response: { temperature: 18 } } },
      { functionResponse: { name: 'weather', response: { temperature: 25 } } },
    ],
  });
});

t.test('a tool message takes its name from the call it answers, or from name; the legacy function role too', async (t) => {
  const { body } = translate({
    messages: [
      { role: 'user', content: 'hi' },
      { role: 'assistant', tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'lookup', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'call_9', content: 'found' },
      { role: 'function', name: 'legacy', content: 'old style' },
    ],
  });
  t.strictSame((body.contents as { parts: unknown[] }[])[2]?.parts, [
    { functionResponse: { name: 'lookup', response: { content: 'found' } } },
    { functionResponse: { name: 'legacy', response: { content: 'old style' } } },
  ]);
});

t.test('tool results become the response object: a JSON object as it is, an array under result, anything else under content', async (t) => {
  const responseOf = (content: unknown) =>
    (
      translate({ messages: [{ role: 'user', content: 'hi' }, { role: 'tool', name: 'f', content }] }).body.contents as {
        parts: { functionResponse: { response: unknown } }[];
      }[]
    )[0]?.parts[1]?.functionResponse.response;
  t.strictSame(responseOf('{"ok": true}'), { ok: true });
  t.strictSame(responseOf('[1, 2]'), { result: [1, 2] });
  t.strictSame(responseOf('42'), { content: '42' });
  t.strictSame(responseOf('plain text'), { content: 'plain text' });
  t.strictSame(responseOf([{ type: 'text', text: '{"a":' }, { type: 'text', text: '1}' }]), { a: 1 });
});

t.test('a tool message whose function cannot be named is a 400', async (t) => {
  t.throws(() => translate({ messages: [{ role: 'user', content: 'hi' }, { role: 'tool', tool_call_id: 'call_unknown', content: 'x' }] }), {
    name: 'GatewayError',
    statusCode: 400,
    param: 'messages[1].tool_call_id',
  });
});

t.test('a request with only system messages is a 400', async (t) => {
  t.throws(() => translate({ messages: [{ role: 'system', content: 'Be brief.' }] }), { name: 'GatewayError', statusCode: 400, param: 'messages' });
});

t.test('system and tool messages carrying non-text parts are a 400 naming the part', async (t) => {
  t.throws(
    () =>
      translate({
        messages: [
          { role: 'system', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] },
          { role: 'user', content: 'hi' },
        ],
      }),
    { name: 'GatewayError', statusCode: 400, param: 'messages[0].content[0]' },
  );
});

t.test('assistant reasoning_content is not sent back', async (t) => {
  const { body } = translate({
    messages: [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello', reasoning_content: 'they greeted me' },
    ],
  });
  t.strictSame((body.contents as unknown[])[1], { role: 'model', parts: [{ text: 'hello' }] });
});
