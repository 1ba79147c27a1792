import OpenAI, { BadRequestError, RateLimitError } from 'openai';
import t from 'tap';
import { startGpCompatGateway } from './compat-gateway.js';

const { gateway, upstream } = await startGpCompatGateway(t);

/** The official client as an application would configure it; retries off so errors surface at once. */
const client = new OpenAI({ apiKey: gateway.apiKey, baseURL: `${gateway.url}/v1`, maxRetries: 0 });

t.test('responses.create returns the Response object with output_text and usage', async (t) => {
  const response = await client.responses.create({ model: 'gp-5.4', input: 'hello there', instructions: 'Be brief.', reasoning: { effort: 'low' } });
  t.equal(response.object, 'response');
  t.equal(response.status, 'completed');
  t.equal(response.output_text, 'echo: hello there');
  t.ok(response.usage !== undefined && response.usage.input_tokens > 0 && response.usage.output_tokens > 0);
  t.equal(response.usage?.total_tokens, (response.usage?.input_tokens ?? 0) + (response.usage?.output_tokens ?? 0));
});

t.test('a streamed response iterates typed events in order and ends with response.completed', async (t) => {
  const stream = await client.responses.create({ model: 'gp-5.4', input: [{ role: 'user', content: 'stream these words' }], stream: true });
  const types: string[] = [];
  const sequence: number[] = [];
  let text = '';
  let completed: OpenAI.Responses.Response | undefined;
  for await (const event of stream) {
    types.push(event.type);
    sequence.push(event.sequence_number);
    if (event.type === 'response.output_text.delta') text += event.delta;
    if (event.type === 'response.completed') completed = event.response;
  }
  t.equal(types[0], 'response.created');
  t.equal(types.at(-1), 'response.completed');
  t.strictSame(sequence, sequence.map((_, index) => index));
  t.equal(text, 'echo: stream these words');
  const message = completed?.output.find((item) => item.type === 'message');
  t.match(message, { role: 'assistant', content: [{ type: 'output_text', text: 'echo: stream these words' }] });
  t.ok((completed?.usage?.output_tokens ?? 0) > 0);
});

t.test('the stream helper collects the final response', async (t) => {
  const stream = client.responses.stream({ model: 'gp-5.4', input: 'helper stream' });
  const final = await stream.finalResponse();
  t.equal(final.output_text, 'echo: helper stream');
});

t.test('previous_response_id continues the conversation, streamed or not', async (t) => {
  const first = await client.responses.create({ model: 'gp-5.4', input: 'my name is Ada' });
  const second = await client.responses.create({ model: 'gp-5.4', input: 'what is my name?', previous_response_id: first.id });
  t.equal(second.previous_response_id, first.id);
  const stream = await client.responses.create({ model: 'gp-5.4', input: 'and again?', previous_response_id: second.id, stream: true });
  let completed: OpenAI.Responses.Response | undefined;
  for await (const event of stream) if (event.type === 'response.completed') completed = event.response;
  t.equal(completed?.previous_response_id, second.id);
});

t.test('an unknown previous_response_id comes back as the upstream’s 400', async (t) => {
  const error = await client.responses.create({ model: 'gp-5.4', input: 'x', previous_response_id: 'resp_does_not_exist' }).catch((caught: unknown) => caught);
  t.type(error, BadRequestError);
  t.match((error as BadRequestError).message, /Previous response with id 'resp_does_not_exist' not found/);
});

t.test('invalid parameters are a BadRequestError naming the parameter', async (t) => {
  const error = await client.responses.create({ model: 'gp-5.4', input: 'x', temperature: 5 }).catch((caught: unknown) => caught);
  t.type(error, BadRequestError);
  t.equal((error as BadRequestError).param, 'temperature');
});

t.test('an upstream out of quota before any content surfaces as a RateLimitError', async (t) => {
  upstream.next({ streamErrorBeforeContent: true });
  const error = await client.responses.create({ model: 'gp-5.4', input: 'x', stream: true }).catch((caught: unknown) => caught);
  t.type(error, RateLimitError);
});
