import t, { type Test } from 'tap';
import { assertOpenAiSchema } from '../helpers/openai-schema.js';
import { pcmTone, wavFile } from '../fakes/openai/fake-openai-upstream.js';
import { startEveryFamilyGateway } from './every-family-gateway.js';

// The audio routes against OpenAI's description: transcriptions and translations in their JSON
// formats; speech is audio bytes, for which the description has no schema.

const { postJson, postForm, upstreams } = await startEveryFamilyGateway(t);

function audioForm(fields: Record<string, string | string[]>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const item of [value].flat()) form.append(name, item);
  form.append('file', new Blob([wavFile(pcmTone(1.5))], { type: 'audio/wav' }), 'hello.wav');
  return form;
}

async function transcript(t: Test, route: 'transcriptions' | 'translations', fields: Record<string, string | string[]>): Promise<unknown> {
  const response = await postForm(`/v1/audio/${route}`, audioForm({ model: 'stt-1', ...fields }));
  t.equal(response.statusCode, 200, `${route} ${JSON.stringify(fields)}`);
  t.match(response.headers['content-type'], /^application\/json/);
  return response.json();
}

t.test('transcriptions match CreateTranscriptionResponseJson, with a duration or a token usage', async (t) => {
  const byDuration = await transcript(t, 'transcriptions', {});
  upstreams.openai.fake.next({ usage: { type: 'tokens', input_tokens: 14, input_token_details: { text_tokens: 0, audio_tokens: 14 }, output_tokens: 9, total_tokens: 23 } });
  const byTokens = await transcript(t, 'transcriptions', {});
  t.match(byTokens, { usage: { type: 'tokens' } });
  assertOpenAiSchema(t, 'CreateTranscriptionResponseJson', [byDuration, byTokens], { what: 'json transcriptions' });
});

t.test('verbose transcriptions, with words and segments, match CreateTranscriptionResponseVerboseJson', async (t) => {
  const segments = await transcript(t, 'transcriptions', { response_format: 'verbose_json' });
  const both = await transcript(t, 'transcriptions', { response_format: 'verbose_json', language: 'en', 'timestamp_granularities[]': ['word', 'segment'] });
  t.match(both, { words: [{ word: String }], segments: [{ id: 0 }] });
  assertOpenAiSchema(t, 'CreateTranscriptionResponseVerboseJson', [segments, both], { what: 'verbose transcriptions' });
});

t.test('translations match CreateTranslationResponseJson and CreateTranslationResponseVerboseJson', async (t) => {
  assertOpenAiSchema(t, 'CreateTranslationResponseJson', [await transcript(t, 'translations', {})], { what: 'a json translation' });
  assertOpenAiSchema(t, 'CreateTranslationResponseVerboseJson', [await transcript(t, 'translations', { response_format: 'verbose_json' })], { what: 'a verbose translation' });
});

t.test('speech answers audio bytes typed by format, not JSON', async (t) => {
  const response = await postJson('/v1/audio/speech', { model: 'tts-1', input: 'Hello, gateway!', voice: 'alloy', response_format: 'wav' });
  t.equal(response.statusCode, 200);
  t.equal(response.headers['content-type'], 'audio/wav');
  t.equal(response.rawPayload.subarray(0, 4).toString('latin1'), 'RIFF', 'a WAV file');
});
