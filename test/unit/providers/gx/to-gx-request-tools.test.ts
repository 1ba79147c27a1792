import t from 'tap';
import { translate } from './fixtures/gx-request-input.js';

const weather = {
  type: 'function',
  function: {
    name: 'weather',
    description: 'Current weather',
    parameters: {
      type: 'object',
      properties: { location: { type: 'string' }, unit: { type: 'string', enum: ['c', 'f'] } },
      required: ['location'],
      additionalProperties: false,
    },
    strict: true,
  },
};
const time = { type: 'function', function: { name: 'time', parameters: { type: 'object', properties: {} } } };
const named = (name: string) => ({ type: 'function', function: { name } });

t.test('functions become one functionDeclarations entry, parameters reduced to the native schema', async (t) => {
  const { body } = translate({ tools: [weather, time] });
  t.strictSame(body.tools, [
    {
      functionDeclarations: [
        {
          name: 'weather',
          description: 'Current weather',
          parameters: { type: 'object', properties: { location: { type: 'string' }, unit: { type: 'string', enum: ['c', 'f'] } }, required: ['location'] },
        },
        { name: 'time' },
      ],
    },
  ]);
  t.notOk('toolConfig' in body);
});

t.test('gxSearch, codeExecution and urlContext switch on the native tools, each once, beside the declarations', async (t) => {
  const { body } = translate({ tools: [named('gxSearch'), weather, named('codeExecution'), named('urlContext'), named('gxSearch')] });
  const tools = body.tools as Record<string, unknown>[];
  t.equal(tools.length, 4);
  t.strictSame(Object.keys(tools[0] ?? {}), ['functionDeclarations']);
  t.strictSame(tools.slice(1), [{ gxSearch: {} }, { codeExecution: {} }, { urlContext: {} }]);
});

t.test('only native tools send no functionDeclarations and no toolConfig', async (t) => {
  const { body } = translate({ tools: [named('gxSearch')], tool_choice: 'auto' });
  t.strictSame(body.tools, [{ gxSearch: {} }]);
  t.notOk('toolConfig' in body);
});

t.test('tool_choice auto, none and required become the calling modes AUTO, NONE and ANY', async (t) => {
  for (const [choice, mode] of [
    ['auto', 'AUTO'],
    ['none', 'NONE'],
    ['required', 'ANY'],
  ] as const) {
    t.strictSame(translate({ tools: [weather], tool_choice: choice }).body.toolConfig, { functionCallingConfig: { mode } }, choice);
  }
});

t.test('tool_choice naming a function becomes ANY limited to that function', async (t) => {
  const { body } = translate({ tools: [weather, time], tool_choice: { type: 'function', function: { name: 'time' } } });
  t.strictSame(body.toolConfig, { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['time'] } });
});

t.test('tool_choice naming a native tool sends no toolConfig, since a native tool cannot be forced', async (t) => {
  const { body } = translate({ tools: [weather, named('gxSearch')], tool_choice: { type: 'function', function: { name: 'gxSearch' } } });
  t.notOk('toolConfig' in body);
});

t.test('tool_choice naming a function that tools lacks is a 400', async (t) => {
  t.throws(() => translate({ tools: [weather], tool_choice: { type: 'function', function: { name: 'missing' } } }), {
    name: 'GatewayError',
    statusCode: 400,
    param: 'tool_choice.function.name',
  });
});
