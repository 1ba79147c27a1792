import t from 'tap';
import { GatewayError } from '../../../../core/index.js';
import { fromGxResponse } from '../../../../providers/gx/chat/from-gx-response.js';
import { assembleResponse, fixtureJson, recordedChunks, sseFixtureChunks } from './fixtures/read-gx-fixtures.js';

type JsonObject = Record<string, unknown>;

const context = { model: 'gx-2.5-flash', requestId: 'req-1', created: 1_760_000_000 };
/** The recorded one-event stream: a complete GenerateContentResponse. */
const textResponse = (): JsonObject => sseFixtureChunks('gemini-stream-single-chunk.raw.sse')[0] as JsonObject;
const thoughtResponse = (): JsonObject => fixtureJson<{ response: { body: JsonObject } }>('gemini-generate-thought-part.json').response.body;
/** A recorded response with its candidate's parts replaced, for part kinds no recording shows. */
const withParts = (parts: unknown[]): JsonObject => {
  const response = textResponse();
  (response.candidates as { content: { parts: unknown[] } }[])[0]!.content.parts = parts;
  return response;
};

t.test('a recorded text answer becomes a chat completion with the upstream id, stop and usage', async (t) => {
  const { body, usage } = fromGxResponse(textResponse(), context);
  t.strictSame(body, {
    id: '4HkhaaajEJaY0-kPyI_b2A4',
    object: 'chat.completion',
    created: 1_760_000_000,
    model: 'gx-2.5-flash',
    choices: [{ index: 0, message: { role: 'assistant', content: '1, 2, 3', refusal: null }, logprobs: null, finish_reason: 'stop' }],
    usage: {
      prompt_tokens: 8,
      completion_tokens: 30,
      total_tokens: 38,
      prompt_tokens_details: { cached_tokens: 0, text_tokens: 8, audio_tokens: 0, image_tokens: 0 },
      completion_tokens_details: { text_tokens: 7, audio_tokens: 0, image_tokens: 0, reasoning_tokens: 23 },
    },
  });
  t.equal(usage.source, 'upstream');
  t.equal(usage.outputTokens, 30);
});

t.test('the id falls back to chatcmpl-<request id> when the upstream sends none', async (t) => {
  const response = textResponse();
  delete response.responseId;
  t.equal(fromGxResponse(response, context).body.id, 'chatcmpl-req-1');
});

t.test('thought parts become reasoning_content, and MAX_TOKENS finishes with length', async (t) => {
  const { body, usage } = fromGxResponse(thoughtResponse(), context);
  const choice = body.choices[0]!;
  t.equal(choice.message.content, '');
  t.match(choice.message.reasoning_content, /^\*\*Breaking Down the Sum of Natural Numbers\*\*/);
  t.equal(choice.finish_reason, 'length');
  t.equal(usage.reasoningTokens, 19);
  t.equal(body.usage.completion_tokens, 19);
  t.equal(body.usage.total_tokens, 36);
});

t.test('reasoning_content is absent when the upstream returned no thoughts', async (t) => {
  t.notOk('reasoning_content' in fromGxResponse(textResponse(), context).body.choices[0]!.message);
});

t.test('a function call with a thought signature becomes a tool call and finishes with tool_calls', async (t) => {
  const response = sseFixtureChunks('gemini3-stream-function-call-thought-signature.sse')[0] as JsonObject;
  const { body } = fromGxResponse(response, { ...context, model: 'gx-3-pro-preview' });
  const choice = body.choices[0]!;
  t.equal(choice.finish_reason, 'tool_calls', 'even though the recorded candidate carries no finish reason');
  t.equal(choice.message.content, '');
  t.equal(choice.message.tool_calls?.length, 1);
  const call = choice.message.tool_calls![0]!;
  t.match(call.id, /^call_[0-9a-f]{32}$/);
  t.strictSame({ type: call.type, function: call.function }, { type: 'function', function: { name: 'weather', arguments: '{"location":"San Francisco"}' } });
  const recorded = ((response.candidates as JsonObject[])[0]!.content as { parts: JsonObject[] }).parts[0]!.thoughtSignature;
  t.strictSame(choice.message.reasoning_details, [{ type: 'reasoning.encrypted', data: recorded, id: call.id }], 'the recorded signature, whole, naming the call it rode on');
});

t.test('reasoning_details is absent when the upstream signed nothing', async (t) => {
  t.notOk('reasoning_details' in fromGxResponse(textResponse(), context).body.choices[0]!.message);
});

t.test('a recorded image answer renders the image as a markdown data URI and counts image tokens', async (t) => {
  const { body, usage } = fromGxResponse(assembleResponse(recordedChunks('gemini-stream-image-output.json')), context);
  const content = body.choices[0]!.message.content;
  t.ok(content.startsWith('I will generate an image of the Eiffel Tower at night, with a vibrant and colorful fireworks display'));
  t.ok(content.endsWith('illuminating the sky.\n\n![image](data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAf4AAAQACAIAAACPray8AAAAiXpUWHRSYXcgcHJv...<TRUNCATED: original 1320056 base64 chars>)'));
  t.strictSame(body.usage.completion_tokens_details, { text_tokens: 28, audio_tokens: 0, image_tokens: 1290, reasoning_tokens: 0 });
  t.equal(usage.images, 1);
});

t.test('code execution parts become fenced blocks on their own lines', async (t) => {
  const response = withParts([
    { text: 'Let me compute it.' },
    { executableCode: { language: 'PYTHON', code: 'print(sum(range(101)))' } },
    { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '5050\n' } },
    { text: 'The sum is 5050.' },
  ]);
  t.equal(
    fromGxResponse(response, context).body.choices[0]!.message.content,
    'Let me compute it.\n```python\nprint(sum(range(101)))\n```\n```output\n5050\n```\nThe sum is 5050.',
  );
});

t.test('inline media other than images becomes a markdown link with a data URI', async (t) => {
  const response = withParts([{ inlineData: { mimeType: 'audio/L16;codec=pcm;rate=24000', data: 'AAAA' } }]);
  const { body, usage } = fromGxResponse(response, context);
  t.equal(body.choices[0]!.message.content, '[media](data:audio/L16;codec=pcm;rate=24000;base64,AAAA)');
  t.equal(usage.images, undefined);
});

t.test('several candidates become several choices, each with its own finish reason', async (t) => {
  const response = textResponse();
  const first = (response.candidates as JsonObject[])[0]!;
  response.candidates = [first, { ...first, index: 1, finishReason: 'SAFETY', content: { role: 'model' } }];
  const { body } = fromGxResponse(response, context);
  t.strictSame(
    body.choices.map((choice) => [choice.index, choice.message.content, choice.finish_reason]),
    [
      [0, '1, 2, 3', 'stop'],
      [1, '', 'content_filter'],
    ],
  );
});

t.test('unknown fields are ignored', async (t) => {
  const response: JsonObject = { ...thoughtResponse(), somethingNew: { nested: [1, 2] } };
  (response.candidates as JsonObject[])[0]!.citationMetadata = { citations: [] };
  t.equal(fromGxResponse(response, context).body.id, 'zi77aPQDsqLV7w_tk62YBQ', 'the recorded turnToken is unknown too');
});

t.test('logprobs from the upstream become chat logprobs', async (t) => {
  const response = textResponse();
  (response.candidates as JsonObject[])[0]!.logprobsResult = {
    topCandidates: [{ candidates: [{ token: '1', logProbability: -0.1 }, { token: 'One', logProbability: -2.5 }] }],
    chosenCandidates: [{ token: '1', logProbability: -0.1 }],
  };
  t.strictSame(fromGxResponse(response, context).body.choices[0]!.logprobs, {
    content: [
      {
        token: '1',
        logprob: -0.1,
        bytes: [49],
        top_logprobs: [
          { token: '1', logprob: -0.1, bytes: [49] },
          { token: 'One', logprob: -2.5, bytes: [79, 110, 101] },
        ],
      },
    ],
    refusal: null,
  });
});

t.test('a blocked prompt is a 400 prompt_blocked that names the reason', async (t) => {
  const response = textResponse();
  delete response.candidates;
  response.promptFeedback = { blockReason: 'PROHIBITED_CONTENT' };
  const error = t.throws(() => fromGxResponse(response, context)) as unknown as GatewayError;
  t.ok(GatewayError.is(error));
  t.match(error, { statusCode: 400, code: 'prompt_blocked', retryable: false, message: /PROHIBITED_CONTENT/ });
});

t.test('an answer without candidates is a retryable 502 empty_response', async (t) => {
  const response = textResponse();
  response.candidates = [];
  t.throws(() => fromGxResponse(response, context), { name: 'GatewayError', statusCode: 502, code: 'empty_response', retryable: true });
});

t.test('an error body becomes the upstream error, with the retry delay as Retry-After', async (t) => {
  t.throws(() => fromGxResponse(fixtureJson('gemini-error-429.json'), context), {
    name: 'GatewayError',
    statusCode: 429,
    code: 'upstream_rate_limited',
    retryable: true,
    headers: { 'retry-after': '35' },
    message: /You exceeded your current quota/,
  });
});

t.test('a body of another shape is a retryable 502', async (t) => {
  t.throws(() => fromGxResponse({ candidates: 'nope' }, context), { name: 'GatewayError', statusCode: 502, code: 'upstream_invalid_response', retryable: true });
  t.throws(() => fromGxResponse('text', context), { name: 'GatewayError', statusCode: 502 });
});

t.test('without usageMetadata the usage is zeros marked estimated', async (t) => {
  const response = textResponse();
  delete response.usageMetadata;
  const { body, usage } = fromGxResponse(response, context);
  t.strictSame(usage, { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0, source: 'estimated' });
  t.equal(body.usage.total_tokens, 0);
});

t.test('a candidate stopped by a filter without any content marks the answer a refusal; one with content does not', async (t) => {
  for (const reason of ['SAFETY', 'PROHIBITED_CONTENT', 'RECITATION']) {
    const response = textResponse();
    response.candidates = [{ finishReason: reason, index: 0, safetyRatings: [{ category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'HIGH', blocked: true }] }];
    const answer = fromGxResponse(response, context);
    t.equal(answer.contentFiltered, true, `${reason} before any content is a refusal`);
    t.equal(answer.body.choices[0]?.finish_reason, 'content_filter', 'and the client sees it as before');
  }
  const cut = textResponse();
  (cut.candidates as JsonObject[])[0]!.finishReason = 'SAFETY';
  t.notOk('contentFiltered' in fromGxResponse(cut, context), 'text before the stop is an answer');
  t.notOk('contentFiltered' in fromGxResponse(textResponse(), context), 'a plain answer is no refusal');
  const emptyText = textResponse();
  emptyText.candidates = [{ content: { parts: [{ text: '' }], role: 'model' }, finishReason: 'SAFETY', index: 0 }];
  t.equal(fromGxResponse(emptyText, context).contentFiltered, true, 'an empty text part is no content');
});
