import t from 'tap';
import type { TranscriptionRequest } from '../../../../core/index.js';
import { toTranscriptionForm } from '../../../../providers/audio/openai-audio-operations.js';

const audio = Buffer.from([0x52, 0x49, 0x46, 0x46, 0x00, 0xff, 0x10, 0x80]);

/** Reads a built body back the way a server does. */
async function readBack(contentType: string, body: string | Uint8Array): Promise<FormData> {
  return new Request('http://upstream.invalid/', { method: 'POST', headers: { 'content-type': contentType }, body }).formData();
}

const request = (fields: Partial<TranscriptionRequest> = {}): TranscriptionRequest => ({
  model: 'stt-1',
  file: { filename: 'clip.wav', mimeType: 'audio/wav', data: audio, durationSeconds: 1 },
  response_format: 'json',
  ...fields,
});

t.test('the upstream form carries the file byte for byte, the upstream model and the format', async (t) => {
  const form = await toTranscriptionForm(request(), 'whisper-1');
  t.match(form.contentType, /^multipart\/form-data; boundary=/);
  const read = await readBack(form.contentType, form.body);
  const file = read.get('file') as File;
  t.equal(file.name, 'clip.wav');
  t.equal(file.type, 'audio/wav');
  t.strictSame(Buffer.from(await file.arrayBuffer()), audio);
  t.equal(read.get('model'), 'whisper-1');
  t.equal(read.get('response_format'), 'json');
  t.strictSame([...read.keys()].sort(), ['file', 'model', 'response_format'], 'nothing the client did not send');
});

t.test('optional fields go as text, each granularity as its own field', async (t) => {
  const form = await toTranscriptionForm(
    request({ response_format: 'verbose_json', language: 'de', prompt: 'Namen: Ärger', temperature: 0.2, timestamp_granularities: ['word', 'segment'] }),
    'whisper-1',
  );
  const read = await readBack(form.contentType, form.body);
  t.equal(read.get('language'), 'de');
  t.equal(read.get('prompt'), 'Namen: Ärger');
  t.equal(read.get('temperature'), '0.2');
  t.strictSame(read.getAll('timestamp_granularities[]'), ['word', 'segment']);
  t.equal(read.get('response_format'), 'verbose_json');
});

t.test('a temperature of 0 is sent, not dropped', async (t) => {
  const form = await toTranscriptionForm(request({ temperature: 0 }), 'whisper-1');
  const read = await readBack(form.contentType, form.body);
  t.equal(read.get('temperature'), '0');
});
