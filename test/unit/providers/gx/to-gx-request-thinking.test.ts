import t from 'tap';
import { mergeGxPassthrough } from '../../../../providers/gx/chat/to-gx-request.js';
import { generationConfigOf, translate } from './fixtures/gx-request-input.js';

const thinkingOf = (fields: Record<string, unknown>, upstreamModel: string) => generationConfigOf(fields, upstreamModel)?.thinkingConfig;

t.test('each thinking suffix is stripped from the upstream model and becomes a thinkingConfig', async (t) => {
  const cases: [string, string, unknown][] = [
    ['gx-2.5-flash-thinking', 'gx-2.5-flash', { includeThoughts: true }],
    ['gx-2.5-flash-thinking-8192', 'gx-2.5-flash', { includeThoughts: true, thinkingBudget: 8192 }],
    ['gx-2.5-flash-thinking-0', 'gx-2.5-flash', { thinkingBudget: 0 }],
    ['gx-2.5-flash-nothinking', 'gx-2.5-flash', { thinkingBudget: 0 }],
    ['gx-3-pro-preview-thinking-low', 'gx-3-pro-preview', { includeThoughts: true, thinkingLevel: 'LOW' }],
    ['gx-3-pro-preview-thinking-high', 'gx-3-pro-preview', { includeThoughts: true, thinkingLevel: 'HIGH' }],
  ];
  for (const [upstreamModel, model, thinkingConfig] of cases) {
    const result = translate({}, upstreamModel);
    t.equal(result.model, model, upstreamModel);
    t.strictSame((result.body.generationConfig as Record<string, unknown>).thinkingConfig, thinkingConfig, upstreamModel);
  }
});

t.test('a model id without a thinking suffix is left alone, even one with -thinking- inside', async (t) => {
  for (const upstreamModel of ['gx-2.5-pro', 'gx-2.0-flash-thinking-exp', 'gx-2.0-flash-thinking-exp-01-21']) {
    const result = translate({}, upstreamModel);
    t.equal(result.model, upstreamModel);
    t.notOk('generationConfig' in result.body, upstreamModel);
  }
});

t.test('extra_body.gx.thinking_config becomes thinkingConfig; a budget above 0 also returns thoughts', async (t) => {
  const withThinking = (thinking_config: unknown) => thinkingOf({ extra_body: { gx: { thinking_config } } }, 'gx-2.5-flash');
  t.strictSame(withThinking({ thinking_budget: 1024 }), { thinkingBudget: 1024, includeThoughts: true });
  t.strictSame(withThinking({ thinking_budget: 0 }), { thinkingBudget: 0 });
  t.strictSame(withThinking({ thinking_budget: -1 }), { thinkingBudget: 0 }, 'negative disables thinking');
  t.strictSame(withThinking({ thinking_budget: 1024, include_thoughts: false }), { thinkingBudget: 1024, includeThoughts: false });
  t.strictSame(withThinking({ include_thoughts: true, thinking_level: 'high' }), { includeThoughts: true, thinkingLevel: 'HIGH' });
});

t.test('mistyped and camelCase thinking_config values are skipped silently', async (t) => {
  const withThinking = (thinking_config: unknown) => thinkingOf({ extra_body: { gx: { thinking_config } } }, 'gx-2.5-flash');
  t.strictSame(withThinking({ thinking_budget: '1024', include_thoughts: 'yes', thinking_level: 3 }), undefined);
  t.strictSame(withThinking({ thinking_budget: 10.5, include_thoughts: true }), { includeThoughts: true });
  t.strictSame(withThinking({ thinkingBudget: 1024, includeThoughts: true }), undefined);
  t.strictSame(withThinking('high'), undefined);
});

t.test('with extra_body.gx present the suffix still comes off the model but adds no thinking', async (t) => {
  const result = translate({ extra_body: { gx: { safetySettings: [] } } }, 'gx-2.5-flash-thinking-8192');
  t.equal(result.model, 'gx-2.5-flash');
  t.strictSame(result.body.generationConfig, undefined);
  const explicit = translate({ extra_body: { gx: { thinking_config: { thinking_budget: 64 } } } }, 'gx-2.5-flash-nothinking');
  t.strictSame((explicit.body.generationConfig as Record<string, unknown>).thinkingConfig, { thinkingBudget: 64, includeThoughts: true });
});

t.test('everything else under extra_body.gx is deep-merged: maps merge, scalars, arrays and null replace, base keys stay', async (t) => {
  const { body } = translate(
    {
      temperature: 0.5,
      max_tokens: 100,
      stop: ['x'],
      tools: [{ type: 'function', function: { name: 'gxSearch' } }],
      extra_body: {
        gx: {
          generationConfig: { temperature: 1, stopSequences: ['y', 'z'], topK: null, imageConfig: { aspectRatio: '16:9' } },
          safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'OFF' }],
          tools: [{ codeExecution: {} }],
          cachedContent: 'cachedContents/abc',
          thinking_config: { thinking_budget: 0 },
        },
      },
    },
    'gx-2.5-flash',
  );
  t.strictSame(body, {
    contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
    generationConfig: {
      temperature: 1,
      maxOutputTokens: 100,
      stopSequences: ['y', 'z'],
      thinkingConfig: { thinkingBudget: 0 },
      topK: null,
      imageConfig: { aspectRatio: '16:9' },
    },
    tools: [{ codeExecution: {} }],
    safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'OFF' }],
    cachedContent: 'cachedContents/abc',
  });
});

t.test('extra_body.gx can refine the thinkingConfig that thinking_config produced', async (t) => {
  const config = thinkingOf(
    { extra_body: { gx: { thinking_config: { thinking_budget: 2048 }, generationConfig: { thinkingConfig: { includeThoughts: false } } } } },
    'gx-2.5-flash',
  );
  t.strictSame(config, { thinkingBudget: 2048, includeThoughts: false });
});

t.test('a __proto__ key in extra_body.gx never reaches a prototype', async (t) => {
  const request = JSON.parse('{"extra_body": {"gx": {"__proto__": {"polluted": true}, "generationConfig": {"__proto__": {"polluted": true}}}}}') as Record<string, unknown>;
  const { body } = translate(request);
  t.equal(({} as Record<string, unknown>).polluted, undefined);
  t.equal((body as Record<string, unknown>).polluted, undefined);
  t.equal((body.generationConfig as Record<string, unknown> | undefined)?.polluted, undefined);
});

t.test('reasoning_effort sets a budget on 2.5-generation models and a level on 3-generation ones, when nothing else does', async (t) => {
  t.strictSame(thinkingOf({ reasoning_effort: 'low' }, 'gx-2.5-flash'), { thinkingBudget: 1024 });
  t.strictSame(thinkingOf({ reasoning_effort: 'none' }, 'gx-2.5-flash'), { thinkingBudget: 0 });
  t.strictSame(thinkingOf({ reasoning_effort: 'high' }, 'gx-3.1-pro-preview'), { thinkingLevel: 'HIGH' });
  t.strictSame(thinkingOf({ reasoning_effort: 'high' }, 'gx-2.5-flash-nothinking'), { thinkingBudget: 0 }, 'the suffix wins');
  t.strictSame(thinkingOf({ reasoning_effort: 'high', extra_body: { gx: {} } }, 'gx-2.5-flash'), undefined, 'extra_body.gx switches it off');
});

t.test('the passthrough merge skips __proto__ keys of parsed JSON and changes neither input', async (t) => {
  const base = { generationConfig: { temperature: 1 }, contents: [] };
  const patch = JSON.parse('{"__proto__": {"polluted": true}, "generationConfig": {"__proto__": {"polluted": true}, "topK": 3}}') as Record<string, unknown>;
  const merged = mergeGxPassthrough(base, patch);
  t.strictSame(merged, { generationConfig: { temperature: 1, topK: 3 }, contents: [] });
  t.equal(Object.getPrototypeOf(merged), Object.prototype);
  t.equal(Object.getPrototypeOf(merged.generationConfig), Object.prototype);
  t.strictSame(base, { generationConfig: { temperature: 1 }, contents: [] });
});
