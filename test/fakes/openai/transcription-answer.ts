import type { OpenAiBehaviour, TranscriptionUsage } from './openai-behaviour.js';
import { invalidValueBody, missingParameterBody, openAiErrorBody } from './openai-error-body.js';
import { countWords, headerValue, jsonAnswer, textAnswer, type OpenAiRoute } from './openai-wire.js';
import { diarizedTranscription, jsonTranscription, srtTranscription, verboseTranscription, vttTranscription, type Transcript } from './transcription-formats.js';
import { wavDurationSeconds } from './wav-audio.js';

/** The upload extensions OpenAI accepts, in the order its error message lists them (it includes `oga`). */
const audioExtensions = ['flac', 'm4a', 'mp3', 'mp4', 'mpeg', 'mpga', 'oga', 'ogg', 'wav', 'webm'];
const allFormats = ['json', 'text', 'srt', 'verbose_json', 'vtt', 'diarized_json'];
/** The length the fake assumes for audio it cannot measure (anything but WAV). */
export const defaultTranscriptionSeconds = 3;

const languageNames: Record<string, string> = {
  en: 'english', de: 'german', fr: 'french', es: 'spanish', it: 'italian', pt: 'portuguese', nl: 'dutch',
  ja: 'japanese', zh: 'chinese', ko: 'korean', ru: 'russian', ar: 'arabic', hi: 'hindi', pl: 'polish',
};

/**
 * `POST /v1/audio/transcriptions` (`task` transcribe) and `/v1/audio/translations`
 * (`task` translate) as upstreams.md §2.6 describes them: a multipart upload answered in the
 * `response_format` asked for. Whisper-style models get every format and usage in seconds;
 * `gpt-*` models only json and text (plus diarized_json for `*-diarize`) and usage in tokens.
 * A WAV upload is measured from its header; other audio counts as
 * {@link defaultTranscriptionSeconds}. The default text is `Transcript of <file name>.`
 * (`Translation of ...` for translations); `text` and `duration` behaviours replace them.
 */
export function transcriptionRoute(task: Transcript['task']): OpenAiRoute {
  return async ({ request, behaviour, started }) => {
    const contentType = headerValue(request.headers['content-type']) ?? '';
    if (!contentType.toLowerCase().startsWith('multipart/form-data')) {
      const message = `Invalid Content-Type header (${contentType || 'none'}), expected multipart/form-data. (HINT: If you're using curl, you can pass -H 'Content-Type: multipart/form-data')`;
      return jsonAnswer(400, openAiErrorBody(400, message), started);
    }
    let form: FormData;
    try {
      form = await new Request('http://fake.invalid/', { method: 'POST', headers: { 'content-type': contentType }, body: request.raw }).formData();
    } catch {
      return jsonAnswer(400, openAiErrorBody(400, 'Could not parse multipart form.'), started);
    }

    const file = form.get('file');
    if (file === null || typeof file === 'string') return jsonAnswer(400, missingParameterBody('file'), started);
    const model = form.get('model');
    if (typeof model !== 'string' || model === '') return jsonAnswer(400, missingParameterBody('model'), started);
    const extension = /\.([^.]+)$/.exec(file.name)?.[1]?.toLowerCase();
    if (extension === undefined || !audioExtensions.includes(extension)) {
      return jsonAnswer(400, openAiErrorBody(400, `Invalid file format. Supported formats: [${audioExtensions.map((name) => `'${name}'`).join(', ')}]`), started);
    }
    const format = String(form.get('response_format') ?? 'json');
    const allowed = formatsFor(model);
    if (!allFormats.includes(format)) {
      return jsonAnswer(400, invalidValueBody('response_format', `'${format}' is not one of [${allowed.map((name) => `'${name}'`).join(', ')}] - 'response_format'`), started);
    }
    if (!allowed.includes(format)) {
      const message = `response_format '${format}' is not compatible with model '${model}'. Use ${allowed.map((name) => `'${name}'`).join(' or ')} instead.`;
      return jsonAnswer(400, openAiErrorBody(400, message, 'response_format', 'unsupported_value'), started);
    }

    const bytes = new Uint8Array(await file.arrayBuffer());
    const transcript = transcriptOf(task, behaviour, {
      model,
      fileName: file.name,
      measured: extension === 'wav' ? wavDurationSeconds(bytes) : undefined,
      language: textField(form, 'language'),
      prompt: textField(form, 'prompt'),
      temperature: Number(textField(form, 'temperature') ?? 0) || 0,
    });
    const granularities = [...form.getAll('timestamp_granularities[]'), ...form.getAll('timestamp_granularities')].map(String);
    switch (format) {
      case 'text':
        return textAnswer(200, `${transcript.text}\n`, started, 'text/plain; charset=utf-8');
      case 'srt':
        return textAnswer(200, srtTranscription(transcript), started, 'text/plain; charset=utf-8');
      case 'vtt':
        return textAnswer(200, vttTranscription(transcript), started, 'text/plain; charset=utf-8');
      case 'verbose_json':
        // Translations have no timestamp_granularities and always answer segments (upstreams.md §2.6).
        return jsonAnswer(200, verboseTranscription(transcript, task === 'translate' || granularities.length === 0 ? ['segment'] : granularities), started);
      case 'diarized_json':
        return jsonAnswer(200, diarizedTranscription(transcript), started);
      default:
        return jsonAnswer(200, jsonTranscription(transcript), started);
    }
  };
}

/** gpt-4o transcription models speak only json and text (upstreams.md §2.6); whisper speaks all but diarized_json. */
function formatsFor(model: string): string[] {
  if (!model.startsWith('gpt-')) return ['json', 'text', 'srt', 'verbose_json', 'vtt'];
  return model.includes('diarize') ? ['json', 'text', 'diarized_json'] : ['json', 'text'];
}

function textField(form: FormData, name: string): string | undefined {
  const value = form.get(name);
  return typeof value === 'string' ? value : undefined;
}

interface UploadFacts {
  model: string;
  fileName: string;
  measured: number | undefined;
  language: string | undefined;
  prompt: string | undefined;
  temperature: number;
}

function transcriptOf(task: Transcript['task'], behaviour: OpenAiBehaviour, upload: UploadFacts): Transcript {
  const duration = behaviour.duration === null ? undefined : (behaviour.duration ?? upload.measured ?? defaultTranscriptionSeconds);
  const text = behaviour.text ?? `${task === 'transcribe' ? 'Transcript' : 'Translation'} of ${upload.fileName}.`;
  const language = task === 'translate' || upload.language === undefined ? 'english' : (languageNames[upload.language] ?? upload.language);
  let usage: TranscriptionUsage | undefined;
  // Translations report no usage (upstreams.md §2.6); without a duration there is nothing to bill.
  if (task === 'transcribe' && duration !== undefined) {
    usage = (behaviour.usage as TranscriptionUsage | undefined) ?? defaultUsage(upload, duration, text);
  }
  return { task, language, text, duration, timingSeconds: duration ?? defaultTranscriptionSeconds, usage, temperature: upload.temperature };
}

/** Whisper bills whole seconds, rounded up (fixture: 36.71 s billed as 37); gpt-4o models bill tokens. */
function defaultUsage(upload: UploadFacts, duration: number, text: string): TranscriptionUsage {
  if (!upload.model.startsWith('gpt-')) return { type: 'duration', seconds: Math.ceil(duration) };
  const textTokens = upload.prompt === undefined ? 0 : countWords(upload.prompt);
  const audioTokens = Math.max(1, Math.ceil(duration * 10));
  const inputTokens = textTokens + audioTokens;
  const outputTokens = Math.max(1, countWords(text));
  return {
    type: 'tokens',
    input_tokens: inputTokens,
    input_token_details: { text_tokens: textTokens, audio_tokens: audioTokens },
    output_tokens: outputTokens,
    total_tokens: inputTokens + outputTokens,
  };
}
