import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import t from 'tap';
import type { Test } from 'tap';
import { sseData } from '../helpers/gateway-scenario.js';
import { openAiDescription, openAiDescriptionFile, toJsonSchema } from '../helpers/openai-openapi-description.js';
import { assertOpenAiSchema, openAiSchemaAllowances, openAiSchemaErrors, type SchemaAllowance } from '../helpers/openai-schema.js';
import { withAllowances } from '../helpers/openai-schema-validators.js';

// The helper itself: the description it reads, the OpenAPI 3.0 leftovers it rewrites, the
// errors it reports, the allowances it applies, and the recorded real answers it accepts.

const fixture = (path: string) => readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8');
const events = (path: string) =>
  sseData(fixture(path))
    .filter((data) => data !== '[DONE]')
    .map((data) => JSON.parse(data) as Record<string, any>);
const allowances = openAiSchemaAllowances;

t.test('the description is the unmodified copy the README names, version 2.3.0', async (t) => {
  const readme = readFileSync(new URL('README.md', import.meta.url), 'utf8');
  const named = /\| sha256 \| `([0-9a-f]{64})` \|/.exec(readme)?.[1];
  t.equal(createHash('sha256').update(readFileSync(openAiDescriptionFile)).digest('hex'), named);
  t.equal(openAiDescription().version, '2.3.0');
  t.ok(Object.keys(openAiDescription().schemas).length > 1400, 'every component schema is read');
});

t.test('OpenAPI 3.0 leftovers are read as JSON Schema 2020-12 says them', async (t) => {
  t.strictSame(toJsonSchema({ type: 'string', nullable: true, description: 'd' }, '/x'), { anyOf: [{ type: 'null' }, { type: 'string', description: 'd' }] });
  t.strictSame(toJsonSchema({ $ref: '#/components/schemas/A', nullable: false }, '/x'), { $ref: '#/components/schemas/A' });
  t.strictSame(toJsonSchema({ type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 2 }, '/x'), { type: 'number', exclusiveMinimum: 0, maximum: 2 });
  t.strictSame(
    toJsonSchema({ $recursiveAnchor: true, properties: { filters: { items: { $recursiveRef: '#' } } } }, '/components/schemas/CompoundFilter'),
    { properties: { filters: { items: { $ref: '#/components/schemas/CompoundFilter' } } } },
  );
  t.strictSame(toJsonSchema({ properties: { nullable: { type: 'boolean' } }, example: { nullable: true } }, '/x'), {
    properties: { nullable: { type: 'boolean' } },
    example: { nullable: true },
  }, 'a property or an example named like a keyword is left alone');
  // CreateChatCompletionStreamResponse says `nullable: true` on `usage` and on a choice's `logprobs`.
  const [chunk] = events('gp/openai-chat-stream-include-usage.sse');
  t.strictSame(openAiSchemaErrors('CreateChatCompletionStreamResponse', { ...chunk, usage: null, choices: [{ ...chunk!.choices[0], logprobs: null }] }), [], 'null where the description says nullable');
  t.strictSame(openAiSchemaErrors('CreateChatCompletionStreamResponse', { ...chunk, created: null }), ['/created must be integer, found null'], 'null where it does not');
});

t.test('every recorded real OpenAI answer matches, with only the allowances its recording is named in', async (t) => {
  assertOpenAiSchema(t, 'CreateChatCompletionResponse', [JSON.parse(fixture('gp/openai-chat-completion-nonstream.json'))], { what: 'a recorded chat completion' });
  assertOpenAiSchema(t, 'CreateChatCompletionStreamResponse', events('gp/openai-chat-stream-include-usage.sse'), { what: 'the chunks of a recorded chat stream with usage' });
  assertOpenAiSchema(t, 'CreateChatCompletionStreamResponse', events('gp/openai-chat-stream-no-usage.raw.sse'), { what: 'the chunks of a recorded chat stream without usage' });
  assertOpenAiSchema(t, 'ImagesResponse', [JSON.parse(fixture('gi/openai-image-edit-gpt-image.json'))], { what: 'a recorded image edit' });
  assertOpenAiSchema(t, 'CreateTranscriptionResponseVerboseJson', [JSON.parse(fixture('openai-audio/openai-transcription-verbose.json'))], { what: 'a recorded verbose transcription' });
  assertOpenAiSchema(t, 'Response', [JSON.parse(fixture('gp/openai-responses-nonstream-reasoning.json'))], {
    what: 'a recorded Response',
    allow: [allowances.responseUserNull, allowances.responseUsageWithoutCacheWrites],
  });
  assertOpenAiSchema(t, 'ResponseStreamEvent', events('gp/openai-responses-stream-text.sse'), {
    what: 'the events of a recorded Responses stream',
    allow: [allowances.responseUserNull, allowances.responseUsageNullUntilDone, allowances.responseUsageWithoutCacheWrites],
  });
  assertOpenAiSchema(t, 'ResponseStreamEvent', events('gp/openai-responses-stream-error.sse'), {
    what: 'the events of a recorded Responses stream that failed',
    allow: [allowances.responseUserNull, allowances.responseUsageNullUntilDone, allowances.responseErrorEventNested, allowances.responseErrorInsufficientQuota],
  });
});

t.test('a missing field is named with its place in the body', async (t) => {
  const completion = JSON.parse(fixture('gp/openai-chat-completion-nonstream.json'));
  delete completion.choices[0].message.refusal;
  t.strictSame(openAiSchemaErrors('CreateChatCompletionResponse', completion), ["/choices/0/message must have required property 'refusal'"]);
});

t.test('a stream event is explained by the kind its type names, not by every other kind of the union', async (t) => {
  const delta = events('gp/openai-responses-stream-text.sse').find((event) => event.type === 'response.output_text.delta')!;
  t.strictSame(openAiSchemaErrors('ResponseStreamEvent', delta), [], 'the recorded delta event matches');
  t.strictSame(openAiSchemaErrors('ResponseStreamEvent', { ...delta, delta: 5 }), ['/delta must be string, found 5']);
  t.strictSame(openAiSchemaErrors('ResponseStreamEvent', { ...delta, type: 'response.output_text.deltas' }), [
    'the body has type "response.output_text.deltas", which none of the 58 kinds allowed here has',
  ]);
  const done = events('gp/openai-responses-stream-text.sse').find((event) => event.type === 'response.completed')!;
  done.response.output[0].content[0].text = null;
  t.strictSame(openAiSchemaErrors('ResponseStreamEvent', done, [allowances.responseUserNull, allowances.responseUsageWithoutCacheWrites]), [
    '/response/output/0/content/0/text must be string, found null',
  ], 'a union inside the meant kind (output items, content parts) is explained the same way');
});

t.test('an allowance widens its own place only, and only for the checks that pass it', async (t) => {
  const image = { created: 1_760_000_000, data: [{ b64_json: 'iVBORw0KGgo', url: '' }] };
  t.strictSame(openAiSchemaErrors('ImagesResponse', image), ['/data/0/url must match format "uri", found ""']);
  t.strictSame(openAiSchemaErrors('ImagesResponse', image, [allowances.gxImageEmptyUrl]), []);
  t.strictSame(openAiSchemaErrors('ImagesResponse', { ...image, data: [{ url: 'not a URL' }] }, [allowances.gxImageEmptyUrl]), ['/data/0/url must match format "uri", found "not a URL"']);
  t.strictSame(openAiSchemaErrors('ImagesResponse', { ...image, data: [{ b64_json: 7, url: '' }] }, [allowances.gxImageEmptyUrl]), ['/data/0/b64_json must be string, found 7']);
});

/** A stand-in for tap's `t` that records the assertions a helper makes. */
function recordingTest(): { t: Test; failed: string[] } {
  const failed: string[] = [];
  const record = (passed: boolean, message: string) => {
    if (!passed) failed.push(message);
    return passed;
  };
  const t = {
    ok: (value: unknown, message: string) => record(Boolean(value), message),
    strictSame: (found: unknown, wanted: unknown, message: string) => record(JSON.stringify(found) === JSON.stringify(wanted), message),
  };
  return { t: t as unknown as Test, failed };
}

t.test('a check fails on a body that differs, on nothing to check, and on an allowance no body needs', async (t) => {
  const image = { created: 1_760_000_000, data: [{ b64_json: 'iVBORw0KGgo', url: '' }] };
  const differs = recordingTest();
  assertOpenAiSchema(differs.t, 'ImagesResponse', [image], { what: 'an image answer' });
  t.strictSame(differs.failed, ["an image answer match ImagesResponse of OpenAI's description 2.3.0"]);
  const empty = recordingTest();
  assertOpenAiSchema(empty.t, 'ImagesResponse', [], { what: 'no answer' });
  t.strictSame(empty.failed, ['no answer: there is something to check']);
  const unneeded = recordingTest();
  assertOpenAiSchema(unneeded.t, 'ImagesResponse', [image, { created: 1 }], { what: 'image answers', allow: [allowances.gxImageEmptyUrl, allowances.videoSizeOfOtherFamilies] });
  t.strictSame(unneeded.failed, ['image answers: every allowance passed is needed']);
  const needed = recordingTest();
  assertOpenAiSchema(needed.t, 'ImagesResponse', [image, { created: 1 }], { what: 'image answers', allow: [allowances.gxImageEmptyUrl] });
  t.strictSame(needed.failed, []);
});

t.test('every allowance names a place in the description and is listed in docs/routes.md', async (t) => {
  const routes = readFileSync(new URL('../../docs/routes.md', import.meta.url), 'utf8');
  const all: SchemaAllowance[] = Object.values(allowances);
  t.doesNotThrow(() => withAllowances(openAiDescription().schemas, all), 'each pointer resolves');
  const nowhere = { ...allowances.gxImageEmptyUrl, name: 'nowhere', at: '/components/schemas/Image/properties/nowhere' };
  t.throws(() => withAllowances(openAiDescription().schemas, [nowhere]), /nowhere: .* is not in the description/);
  t.throws(() => openAiSchemaErrors('ImagesResponse', {}, [nowhere]), /allowance nowhere is not in openAiSchemaAllowances: add it there, and to docs\/routes.md/);
  for (const allowance of all) t.match(routes, `\`${allowance.name}\``, `${allowance.name} is listed`);
  t.equal(new Set(all.map((allowance) => allowance.name)).size, all.length, 'names are unique');
});

t.test('a schema the description does not have is refused by name', async (t) => {
  t.throws(() => openAiSchemaErrors('CreateChatCompletionAnswer', {}), /OpenAI's description has no component schema CreateChatCompletionAnswer/);
});
