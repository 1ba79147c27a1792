import type { AddressInfo } from 'node:net';
import OpenAI, { AuthenticationError, BadRequestError, toFile } from 'openai';
import t from 'tap';
import { startFakeOpenAiUpstream, wavFile } from '../fakes/openai/fake-openai-upstream.js';
import { TokenService } from '../../core/tokens/token-service.js';
import { UserService } from '../../core/users/user-service.js';
import { buildTestApp } from '../helpers/build-test-app.js';

// stt-1 costs 0.006 USD a minute: 3000 quota units a minute, 50 a second. tts-1 costs 0.015
// USD per 1000 characters: 7.5 units a character.
const unitsPerSecondOfAudio = 50;

const upstreamKey = 'openai-audio-compat-upstream-key';
const upstream = await startFakeOpenAiUpstream({ apiKey: upstreamKey });
t.teardown(() => upstream.close());
const { app } = await buildTestApp(t, 'sqlite', {
  providers: [
    { name: 'audio-main', plugin: 'audio', base_url: upstream.url, api_key: upstreamKey, models: ['tts-1', 'tts-1-hd', 'stt-1'], model_map: { 'stt-1': 'whisper-1' } },
  ],
  pricing: { 'tts-1': { per_1k_chars: 0.015 }, 'tts-1-hd': { per_1k_chars: 0.03 }, 'stt-1': { per_minute: 0.006 } },
});
await app.listen({ port: 0, host: '127.0.0.1' });
const { user } = await app.gateway.resolve(UserService).create('audio-compat');
const tokens = app.gateway.resolve(TokenService);
const token = await tokens.create(user.id, { name: 'audio-compat', remain_quota: 1_000_000 });
const key = await tokens.revealKey(user.id, token.id);

/** The official client as an application would configure it; retries off so errors surface at once. */
const client = new OpenAI({ apiKey: `sk-${key}`, baseURL: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/v1`, maxRetries: 0 });

/** A real WAV file generated here: `seconds` of a 440 Hz sine tone as 16-bit mono PCM at 16 kHz, in the canonical RIFF header. */
function sineWav(seconds: number, sampleRate = 16_000): Buffer {
  const samples = Math.round(seconds * sampleRate);
  const pcm = Buffer.alloc(samples * 2);
  for (let index = 0; index < samples; index += 1) pcm.writeInt16LE(Math.round(12_000 * Math.sin((2 * Math.PI * 440 * index) / sampleRate)), index * 2);
  return wavFile(pcm, sampleRate);
}

const tone = sineWav(1.5);

/** What the token has spent so far; settlement of streamed audio finishes just after the body, so this waits for a change. */
async function usedQuotaAfter(before: number): Promise<number> {
  const until = Date.now() + 3000;
  for (;;) {
    const used = (await tokens.get(user.id, token.id)).used_quota;
    if (used !== before || Date.now() > until) return used;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

t.test('audio.speech.create returns the audio bytes of the requested format', async (t) => {
  const before = (await tokens.get(user.id, token.id)).used_quota;
  const response = await client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'Hello from the gateway.', response_format: 'wav' });
  t.equal(response.headers.get('content-type'), 'audio/wav');
  const audio = Buffer.from(await response.arrayBuffer());
  t.equal(audio.toString('ascii', 0, 4), 'RIFF');
  t.equal(audio.toString('ascii', 8, 12), 'WAVE');
  t.equal((await usedQuotaAfter(before)) - before, Math.ceil(23 * 7.5), '23 characters at 0.015 USD per 1000');
});

t.test('audio.speech.create defaults to mp3', async (t) => {
  const response = await client.audio.speech.create({ model: 'tts-1-hd', voice: 'nova', input: 'Default format.' });
  t.equal(response.headers.get('content-type'), 'audio/mpeg');
  t.equal(Buffer.from(await response.arrayBuffer()).toString('ascii', 0, 3), 'ID3');
});

t.test('audio.transcriptions.create reads the transcript of a WAV and billing uses its length', async (t) => {
  const before = (await tokens.get(user.id, token.id)).used_quota;
  upstream.next({ text: 'A sine tone at four hundred and forty hertz.' });
  const transcription = await client.audio.transcriptions.create({ model: 'stt-1', file: await toFile(tone, 'tone.wav', { type: 'audio/wav' }) });
  t.equal(transcription.text, 'A sine tone at four hundred and forty hertz.');
  t.strictSame(transcription.usage, { type: 'duration', seconds: 2 }, 'the upstream bills the 1.5 s tone as 2 whole seconds');
  t.equal((await usedQuotaAfter(before)) - before, 2 * unitsPerSecondOfAudio);
});

t.test('a text transcript says nothing of the audio, so billing reads the WAV itself', async (t) => {
  const before = (await tokens.get(user.id, token.id)).used_quota;
  const text = await client.audio.transcriptions.create({ model: 'stt-1', file: await toFile(tone, 'tone.wav'), response_format: 'text' });
  t.equal(text, 'Transcript of tone.wav.\n');
  t.equal((await usedQuotaAfter(before)) - before, 1.5 * unitsPerSecondOfAudio, 'exactly 1.5 seconds');
});

t.test('verbose_json with word timestamps parses into words and segments', async (t) => {
  const transcription = await client.audio.transcriptions.create({
    model: 'stt-1',
    file: await toFile(tone, 'tone.wav'),
    response_format: 'verbose_json',
    timestamp_granularities: ['word', 'segment'],
    language: 'en',
  });
  t.equal(transcription.duration, 1.5);
  t.equal(transcription.language, 'english');
  t.ok((transcription.words?.length ?? 0) > 0 && (transcription.segments?.length ?? 0) > 0);
  t.equal(transcription.words?.at(-1)?.end, 1.5);
});

t.test('audio.translations.create returns the English text', async (t) => {
  const translation = await client.audio.translations.create({ model: 'stt-1', file: await toFile(tone, 'ton.wav') });
  t.equal(translation.text, 'Translation of ton.wav.');
});

t.test('an unsupported file surfaces as a BadRequestError with the gateway message', async (t) => {
  const error = await client.audio.transcriptions.create({ model: 'stt-1', file: await toFile(Buffer.from('hello'), 'notes.txt') }).catch((caught: unknown) => caught);
  t.type(error, BadRequestError);
  t.match((error as BadRequestError).error, { message: /not a supported audio type; send one of flac, mp3/, param: 'file' });
});

t.test('a wrong key surfaces as an AuthenticationError', async (t) => {
  const stranger = new OpenAI({ apiKey: 'sk-wrong', baseURL: client.baseURL, maxRetries: 0 });
  const error = await stranger.audio.transcriptions.create({ model: 'stt-1', file: await toFile(tone, 'tone.wav') }).catch((caught: unknown) => caught);
  t.type(error, AuthenticationError);
});
