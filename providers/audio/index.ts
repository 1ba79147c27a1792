import { defineProvider } from '../../core/index.js';
import type { PathPrefixOptions } from '../../core/kit/index.js';
import { openAiCompatibleOptionsSchema } from '../shared/openai-compatible/openai-compatible.js';
import { createOpenAiAudioSpeechOperation, createOpenAiAudioTranscriptionOperation } from './openai-audio-operations.js';

/** The audio family (tts-, stt- models): speech, transcription and translation on an OpenAI-format upstream. */
export default defineProvider<PathPrefixOptions>({
  apiVersion: 2,
  name: 'audio',
  options: openAiCompatibleOptionsSchema,
  create: (_options, host) => ({
    operations: {
      'audio.speech': createOpenAiAudioSpeechOperation(host),
      'audio.transcribe': createOpenAiAudioTranscriptionOperation(host, '/audio/transcriptions'),
      'audio.translate': createOpenAiAudioTranscriptionOperation(host, '/audio/translations'),
    },
  }),
});
