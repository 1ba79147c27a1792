import type { FastifyRequest } from 'fastify';
import { transcriptFormats, type TranscriptFormat, type TranscriptionRequest } from '../../core/contracts/audio-requests.js';
import { invalidRequest } from '../../core/errors/error-codes.js';
import { GatewayError } from '../../core/errors/gateway-error.js';
import { readAudioDuration } from '../../core/media/read-audio-duration.js';
import { boundedParts } from '../http/read-multipart-form.js';
import { audioExtensions, audioFileType } from './audio-file-types.js';
import { quoted } from '../../core/errors/client-text.js';

/** Which endpoint the form was sent to; translations take fewer fields. */
export type TranscriptionTask = 'transcribe' | 'translate';

/** The limits the form is read under. */
export interface TranscriptionFormLimits {
  /** The largest file, in MiB (`audio.max_upload_mb`). */
  maxUploadMegabytes: number;
  /** The longest text field, in bytes. */
  maxFieldBytes: number;
}

type TextField = 'model' | 'response_format' | 'language' | 'prompt' | 'temperature' | 'timestamp_granularities[]';

const commonFields: readonly TextField[] = ['model', 'response_format', 'prompt', 'temperature'];
const transcriptionOnlyFields: readonly TextField[] = ['language', 'timestamp_granularities[]'];
const granularities = ['word', 'segment'] as const;

/** Clients spell the repeated field with or without brackets; both mean the same. */
const canonicalName = (name: string): string => (name === 'timestamp_granularities' ? 'timestamp_granularities[]' : name);

/**
 * Reads a multipart transcription or translation form into the operation's request: the
 * `file` part (one, not empty, an accepted audio type, at most `maxUploadMegabytes` MiB, its
 * duration read from the audio itself) and the text fields, each checked as the JSON routes
 * check theirs. Every mistake is a 4xx that names the field: an unknown or repeated field, a
 * missing file or model, a bad value, an upload over the limit (413).
 */
export async function readTranscriptionForm(request: FastifyRequest, task: TranscriptionTask, limits: TranscriptionFormLimits): Promise<TranscriptionRequest> {
  const allowed = new Set<string>(task === 'transcribe' ? [...commonFields, ...transcriptionOnlyFields] : commonFields);
  const fields = new Map<string, string[]>();
  let file: { filename: string; mimeType: string; data: Buffer } | undefined;

  try {
    for await (const part of boundedParts(request)) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') throw unknownField(part.fieldname, task);
        const data = await part.toBuffer();
        file = { filename: part.filename, mimeType: part.mimetype, data };
        continue;
      }
      const name = canonicalName(part.fieldname);
      if (name === 'file') throw invalidRequest('file: expected an audio file part (with a filename), not a text field', { param: 'file' });
      if (!allowed.has(name)) throw unknownField(part.fieldname, task);
      if (part.valueTruncated) throw invalidRequest(`${name}: expected at most ${limits.maxFieldBytes} bytes`, { param: name });
      const values = fields.get(name) ?? [];
      if (values.length > 0 && name !== 'timestamp_granularities[]') throw invalidRequest(`${name}: sent more than once; send it once`, { param: name });
      values.push(typeof part.value === 'string' ? part.value : String(part.value));
      fields.set(name, values);
    }
  } catch (error) {
    throw formError(error, limits);
  }

  if (file === undefined) throw invalidRequest('file: required; send the audio as a multipart part named "file"', { param: 'file' });
  const one = (name: TextField) => fields.get(name)?.[0];
  const model = one('model');
  if (model === undefined || model === '') throw invalidRequest('model: required', { param: 'model' });
  const responseFormat = readResponseFormat(one('response_format'));
  const timestampGranularities = readGranularities(fields.get('timestamp_granularities[]'), responseFormat);

  if (file.data.byteLength === 0) throw invalidRequest(`file: ${quoted(file.filename)} is empty; send a recording`, { param: 'file' });
  const type = audioFileType(file.filename, file.mimeType);
  if (type === undefined) {
    throw invalidRequest(`file: ${quoted(file.filename)} is not a supported audio type; send one of ${audioExtensions.join(', ')} (decided by the file name's extension)`, {
      param: 'file',
    });
  }
  // The sniffing read is the fallback for a file whose name or header claims the wrong format.
  const durationSeconds = (await readAudioDuration(file.data, type.mediaType)) ?? (await readAudioDuration(file.data));

  const language = one('language');
  const prompt = one('prompt');
  const temperature = one('temperature');
  return {
    model,
    file: { filename: type.filename, mimeType: type.mediaType, data: file.data, durationSeconds },
    response_format: responseFormat,
    ...(language === undefined ? {} : { language: readLanguage(language) }),
    ...(prompt === undefined ? {} : { prompt }),
    ...(temperature === undefined ? {} : { temperature: readTemperature(temperature) }),
    ...(timestampGranularities === undefined ? {} : { timestamp_granularities: timestampGranularities }),
  };
}

function unknownField(name: string, task: TranscriptionTask): GatewayError {
  const onlyTranscriptions = task === 'translate' && transcriptionOnlyFields.includes(canonicalName(name) as TextField);
  return invalidRequest(
    onlyTranscriptions
      ? `unknown field ${quoted(name)} for translations (it is accepted by /v1/audio/transcriptions only); remove it`
      : `unknown field ${quoted(name)} in the form; check its spelling`,
    { param: name },
  );
}

function readResponseFormat(value: string | undefined): TranscriptFormat {
  if (value === undefined) return 'json';
  if ((transcriptFormats as readonly string[]).includes(value)) return value as TranscriptFormat;
  throw invalidRequest(`response_format: expected one of ${transcriptFormats.join(', ')}`, { param: 'response_format' });
}

function readGranularities(values: string[] | undefined, responseFormat: TranscriptFormat): Array<'word' | 'segment'> | undefined {
  if (values === undefined) return undefined;
  const param = 'timestamp_granularities[]';
  for (const value of values) {
    if (!(granularities as readonly string[]).includes(value)) throw invalidRequest(`${param}: expected word or segment`, { param });
  }
  if (responseFormat !== 'verbose_json') throw invalidRequest(`${param}: needs response_format verbose_json`, { param });
  return [...new Set(values)] as Array<'word' | 'segment'>;
}

function readLanguage(value: string): string {
  if (!/^[a-z]{2}$/.test(value)) throw invalidRequest('language: expected an ISO-639-1 code of two lower-case letters, such as en', { param: 'language' });
  return value;
}

function readTemperature(value: string): number {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number < 0 || number > 1) {
    throw invalidRequest('temperature: expected a number from 0 to 1', { param: 'temperature' });
  }
  return number;
}

/** The client error for a failure while the form was read: the multipart limits, or a body that is not a valid form. */
function formError(error: unknown, limits: TranscriptionFormLimits): GatewayError {
  if (GatewayError.is(error)) return error;
  switch ((error as { code?: string }).code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new GatewayError(413, 'file_too_large', `file: larger than the upload limit of ${limits.maxUploadMegabytes} MB; send a shorter or more compressed recording`, {
        param: 'file',
      });
    case 'FST_FILES_LIMIT':
      return invalidRequest('file: send one audio file per request', { param: 'file' });
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return invalidRequest('the form has more fields than the endpoint takes; send file, model and the optional fields only');
    case 'FST_PROTO_VIOLATION':
      return invalidRequest('the form has a field name that is not allowed');
    default:
      return invalidRequest(`the multipart body could not be read: ${(error as Error).message}`, { cause: error });
  }
}
