import { readFileSync } from 'node:fs';
import t from 'tap';
import { transcriptSchema } from '../../../../providers/audio/openai-audio-operations.js';
import { readTranscriptionUsage, transcriptContentType } from '../../../../providers/audio/openai-audio-operations.js';

const fixture = (name: string) => readFileSync(new URL(`../../../fixtures/openai-audio/${name}`, import.meta.url), 'utf8');
const facts = (text: string) => transcriptSchema.parse(JSON.parse(text));

t.test('the recorded verbose transcript is billed by the seconds OpenAI charged, not its exact duration', async (t) => {
  const recorded = facts(fixture('openai-transcription-verbose.json'));
  t.equal(recorded.duration, 36.709999084472656, 'the fixture reads as recorded');
  const usage = readTranscriptionUsage(recorded, 12);
  t.equal(usage.minutes, 37 / 60, '37 billed seconds');
  t.equal(usage.source, 'upstream');
  t.equal(usage.inputTokens, 0);
  t.equal(usage.outputTokens, 0);
});

t.test('a verbose translation without usage is billed by its duration', async (t) => {
  const recorded = JSON.parse(fixture('openai-transcription-verbose.json')) as Record<string, unknown>;
  const { usage: _dropped, words: _words, ...translation } = recorded;
  const usage = readTranscriptionUsage(facts(JSON.stringify({ ...translation, task: 'translate' })), 12);
  t.equal(usage.minutes, 36.709999084472656 / 60);
  t.equal(usage.source, 'upstream');
});

t.test('a json transcript with duration usage is billed by its seconds', async (t) => {
  const usage = readTranscriptionUsage(facts('{"text":"Hello.","usage":{"type":"duration","seconds":5}}'), 4.2);
  t.match(usage, { minutes: 5 / 60, source: 'upstream' });
});

t.test('token usage becomes input and output tokens, with minutes from the file', async (t) => {
  const body = JSON.stringify({
    text: 'Hi there.',
    usage: { type: 'tokens', input_tokens: 14, input_token_details: { text_tokens: 0, audio_tokens: 14 }, output_tokens: 45, total_tokens: 59 },
  });
  const usage = readTranscriptionUsage(facts(body), 90);
  t.strictSame(usage, {
    inputTokens: 14,
    cachedInputTokens: 0,
    outputTokens: 45,
    reasoningTokens: 0,
    source: 'upstream',
    inputModalities: { text: 0, audio: 14 },
    minutes: 1.5,
  });
  t.notOk('minutes' in readTranscriptionUsage(facts(body), undefined), 'no file length, no minutes');
});

t.test('a transcript that says nothing about its audio is billed by the file, flagged estimated', async (t) => {
  t.match(readTranscriptionUsage(undefined, 30), { minutes: 0.5, source: 'estimated' }, 'text, srt and vtt');
  t.match(readTranscriptionUsage(facts('{"text":"Hello."}'), 30), { minutes: 0.5, source: 'estimated' }, 'json without usage');
});

t.test('without any length the usage has no minutes, so the reserved estimate is billed', async (t) => {
  const usage = readTranscriptionUsage(facts('{"text":"Hello."}'), undefined);
  t.equal(usage.source, 'estimated');
  t.notOk('minutes' in usage, 'minutes is left out rather than set to undefined');
});

t.test('nonsense durations are ignored', async (t) => {
  t.match(readTranscriptionUsage(facts('{"text":"x","duration":-3,"usage":{"type":"duration","seconds":null}}'), 6), { minutes: 0.1, source: 'estimated' });
});

t.test('a transcript keeps the upstream content type of its family, else the usual one', async (t) => {
  t.equal(transcriptContentType('json', 'application/json'), 'application/json');
  t.equal(transcriptContentType('verbose_json', 'application/json; charset=utf-8'), 'application/json; charset=utf-8');
  t.equal(transcriptContentType('vtt', 'text/vtt; charset=utf-8'), 'text/vtt; charset=utf-8');
  t.equal(transcriptContentType('srt', 'text/plain; charset=utf-8'), 'text/plain; charset=utf-8');
  t.equal(transcriptContentType('text', undefined), 'text/plain; charset=utf-8');
  t.equal(transcriptContentType('json', 'text/html'), 'application/json', 'a json format never goes out as html');
  t.equal(transcriptContentType('srt', 'application/octet-stream'), 'text/plain; charset=utf-8');
});
