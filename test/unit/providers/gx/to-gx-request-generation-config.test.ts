import t from 'tap';
import { generationConfigOf, translate } from './fixtures/gx-request-input.js';

t.test('fields the client left out stay out, so the upstream defaults apply', async (t) => {
  const { model, body } = translate({ messages: [{ role: 'user', content: 'hi' }] });
  t.equal(model, 'gx-2.5-flash');
  t.strictSame(body, { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
  t.strictSame(generationConfigOf({ response_format: { type: 'text' }, n: 1, stop: [] }), undefined);
});

t.test('temperature, top_p, top_k, seed and the penalties map to their native names', async (t) => {
  t.strictSame(generationConfigOf({ temperature: 0.2, top_p: 0.9, top_k: 40, seed: 7, frequency_penalty: 0.5, presence_penalty: -0.5 }), {
    temperature: 0.2,
    topP: 0.9,
    topK: 40,
    seed: 7,
    frequencyPenalty: 0.5,
    presencePenalty: -0.5,
  });
  t.strictSame(generationConfigOf({ temperature: 0 }), { temperature: 0 }, 'zero is a value, not an absence');
});

t.test('max_tokens or max_completion_tokens become maxOutputTokens, the newer name winning', async (t) => {
  t.strictSame(generationConfigOf({ max_tokens: 100 }), { maxOutputTokens: 100 });
  t.strictSame(generationConfigOf({ max_completion_tokens: 200 }), { maxOutputTokens: 200 });
  t.strictSame(generationConfigOf({ max_tokens: 100, max_completion_tokens: 200 }), { maxOutputTokens: 200 });
});

t.test('stop becomes stopSequences, at most five, extra entries dropped', async (t) => {
  t.strictSame(generationConfigOf({ stop: 'END' }), { stopSequences: ['END'] });
  t.strictSame(generationConfigOf({ stop: ['a', 'b', 'c', 'd', 'e', 'f', 'g'] }), { stopSequences: ['a', 'b', 'c', 'd', 'e'] });
});

t.test('n becomes candidateCount only when above 1', async (t) => {
  t.strictSame(generationConfigOf({ n: 1 }), undefined);
  t.strictSame(generationConfigOf({ n: 3 }), { candidateCount: 3 });
});

t.test('logprobs and top_logprobs become responseLogprobs and logprobs', async (t) => {
  t.strictSame(generationConfigOf({ logprobs: true, top_logprobs: 5 }), { responseLogprobs: true, logprobs: 5 });
});

t.test('modalities become upper-case responseModalities', async (t) => {
  t.strictSame(generationConfigOf({ modalities: ['text', 'Audio', 'IMAGE'] }), { responseModalities: ['TEXT', 'AUDIO', 'IMAGE'] });
});

t.test('audio passes through as speechConfig', async (t) => {
  const native = { voiceConfig: { prebuiltVoiceConfig: { voiceName: 'Kore' } }, languageCode: 'en-US' };
  t.strictSame(generationConfigOf({ modalities: ['audio'], audio: native }), { responseModalities: ['AUDIO'], speechConfig: native });
  const multiSpeaker = { multiSpeakerVoiceConfig: { speakerVoiceConfigs: [{ speaker: 'Joe', voiceConfig: { prebuiltVoiceConfig: { voiceName: 'Puck' } } }] } };
  t.strictSame(generationConfigOf({ audio: multiSpeaker }), { speechConfig: multiSpeaker });
});

t.test('an OpenAI-style audio voice becomes the prebuilt voice and its format is left out', async (t) => {
  t.strictSame(generationConfigOf({ audio: { voice: 'Charon', format: 'wav' } }), { speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: 'Charon' } } } });
  t.strictSame(generationConfigOf({ audio: { voice: 'Charon', voiceConfig: { prebuiltVoiceConfig: { voiceName: 'Kore' } } } }), {
    speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: 'Kore' } } },
  });
});

t.test('json_object asks for application/json without a schema', async (t) => {
  t.strictSame(generationConfigOf({ response_format: { type: 'json_object' } }), { responseMimeType: 'application/json' });
});

t.test('json_schema asks for application/json with the schema, keys unknown to the native schema removed at every level', async (t) => {
  const config = generationConfigOf({
    response_format: {
      type: 'json_schema',
      json_schema: {
        name: 'person',
        strict: true,
        schema: {
          $schema: 'http://json-schema.org/draft-07/schema#',
          type: 'object',
          additionalProperties: false,
          properties: {
            name: { type: 'string', description: 'full name', minLength: 1 },
            tags: { type: 'array', items: { type: 'string', additionalProperties: false, examples: ['x'] }, maxItems: 3 },
            additionalProperties: { type: 'boolean', $comment: 'a property that happens to share a keyword name' },
            address: { type: 'object', additionalProperties: false, properties: { city: { type: 'string' } }, required: ['city'] },
            contact: { anyOf: [{ type: 'string', format: 'email' }, { type: 'integer', exclusiveMinimum: 0 }] },
          },
          required: ['name'],
        },
      },
    },
  });
  t.strictSame(config, {
    responseMimeType: 'application/json',
    responseSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'full name', minLength: 1 },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 3 },
        additionalProperties: { type: 'boolean' },
        address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        contact: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
      },
      required: ['name'],
    },
  });
});
