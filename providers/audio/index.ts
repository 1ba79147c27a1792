import { defineProvider } from '../../core/index.js';
import { openAiAudioOptionsSchema, type OpenAiAudioOptions } from './openai-audio-options.js';
import { createOpenAiAudioSpeechOperation } from './openai-audio-speech-operation.js';
import { createOpenAiAudioTranscriptionOperation } from './openai-audio-transcription-operation.js';

/** The audio family (tts-, stt- models): speech, transcription and translation on an OpenAI-format upstream. */
export default defineProvider<OpenAiAudioOptions>({
  apiVersion: 1,
  name: 'audio',
  options: openAiAudioOptionsSchema,
  create: (_options, host) => ({
    operations: {
      'audio.speech': createOpenAiAudioSpeechOperation(host),
      'audio.transcribe': createOpenAiAudioTranscriptionOperation(host, '/audio/transcriptions'),
      'audio.translate': createOpenAiAudioTranscriptionOperation(host, '/audio/translations'),
    },
  }),
});
