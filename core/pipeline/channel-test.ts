import type { FastifyBaseLogger } from 'fastify';
import type { OperationName } from '../contracts/provider/operation-call.js';
import type { OperationResult } from '../contracts/provider/operation-results.js';
import { chatCompletionRequestSchema } from '../contracts/chat-completion-request.js';
import { imageRequestSchema } from '../contracts/image-requests.js';
import { nativeEmbedRequestSchema, nativeGenerateRequestSchema } from '../contracts/native-requests.js';
import { responsesRequestSchema } from '../contracts/responses-request.js';
import { speechRequestSchema, type TranscriptionRequest } from '../contracts/audio-requests.js';
import { internalError, invalidRequest } from '../errors/error-codes.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { RunObserver } from '../observability/run-observer.js';
import type { Channel } from '../routing/channel.js';
import { scrubSecrets } from '../security/secret-values.js';
import { invokeOperation } from './invoke-operation.js';
import { PreparedRequests } from './prepared-requests.js';

const prompt = 'Reply with the word OK.';

/** Half a second of silence as a 16 kHz mono 16-bit WAV file: the shortest audio a transcription bills for. */
function silentWav(): Buffer {
  const samples = 8000;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + samples * 2, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(16000, 24);
  header.writeUInt32LE(32000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(samples * 2, 40);
  return Buffer.concat([header, Buffer.alloc(samples * 2)]);
}

/**
 * The operations a channel test can send, cheapest first, each with the smallest request of
 * its client format: a few tokens of text, one embedding, two spoken letters, half a second of
 * audio, one image. Video tasks are not among them: every submission starts a billed
 * generation of several seconds that nobody would collect.
 */
const testRequests: { readonly [Name in OperationName]?: (model: string) => unknown } = {
  chat: (model) => chatCompletionRequestSchema.parse({ model, messages: [{ role: 'user', content: prompt }], max_completion_tokens: 16 }),
  responses: (model) => responsesRequestSchema.parse({ model, input: prompt, max_output_tokens: 16 }),
  'native.generate': () => nativeGenerateRequestSchema.parse({ contents: [{ role: 'user', parts: [{ text: prompt }] }], generationConfig: { maxOutputTokens: 16 } }),
  'native.embed': () => nativeEmbedRequestSchema.parse({ content: { parts: [{ text: 'OK' }] } }),
  'audio.speech': (model) => speechRequestSchema.parse({ model, input: 'OK', voice: 'alloy' }),
  'audio.transcribe': (model): TranscriptionRequest => ({
    model,
    file: { filename: 'channel-test.wav', mimeType: 'audio/wav', data: silentWav(), durationSeconds: 0.5 },
    response_format: 'json',
  }),
  'images.generate': (model) => imageRequestSchema.parse({ model, prompt: 'a plain white square', n: 1 }),
};

/** The operations {@link testRequests} can send, in the order a test picks them. */
export const testableOperations = Object.keys(testRequests) as OperationName[];

/** What a channel test asks. */
export interface ChannelTestQuestion {
  name: string;
  /** A model the channel lists; by default its first listed name that is not a pattern. */
  model?: string;
  /** One of {@link testableOperations} the channel's provider implements; by default the first. */
  operation?: OperationName;
  signal: AbortSignal;
  requestId: string;
}

/** How a channel test went. */
export interface ChannelTestOutcome {
  name: string;
  model: string;
  operation: OperationName;
  /** True when the channel answered the request. */
  ok: boolean;
  /** The status a client would have got from this channel: 200, or the error's. */
  status: number;
  /** From sending the request to the channel's answer. */
  latency_ms: number;
  /** Why it failed: the gateway's code and the message, the upstream's own words included, scrubbed of every configured key. */
  error: { code: string; message: string } | null;
}

/**
 * Sends one small request straight to one named channel, without routing, failover, quota or
 * billing, and says how it went. The attempt is reported to `observer` like any other, so
 * metrics and the channel's recent activity count it; the circuit breaker does not, since a
 * test is an operator's question and must not open or close a circuit clients rely on.
 */
export class ChannelTester {
  readonly #channels: () => readonly Channel[];
  readonly #observer: RunObserver | undefined;
  readonly #logger: Pick<FastifyBaseLogger, 'error'>;

  /** `channels` gives the channels in force when a test is asked for. */
  constructor(channels: () => readonly Channel[], logger: Pick<FastifyBaseLogger, 'error'>, observer?: RunObserver) {
    this.#channels = channels;
    this.#logger = logger;
    this.#observer = observer;
  }

  /** Tests the channel; a question naming no channel, a model it does not list or an operation it cannot test is a 400 naming that field. */
  async test(question: ChannelTestQuestion): Promise<ChannelTestOutcome> {
    const channels = this.#channels();
    const channel = channels.find((candidate) => candidate.name === question.name);
    if (channel === undefined) {
      const names = channels.map((candidate) => candidate.name);
      throw invalidRequest(`name: no channel is named "${question.name}"; the channels are ${names.length === 0 ? 'none' : names.join(', ')}`, { param: 'name' });
    }
    const model = modelToTest(channel, question.model);
    const operation = operationToTest(channel, question.operation);
    const startedAt = Date.now();
    let failure: GatewayError | undefined;
    try {
      const request = new PreparedRequests(operation, testRequests[operation]!(model)).of(channel);
      const result = await invokeOperation(channel, operation, {
        request,
        model,
        upstreamModel: channel.upstreamModel(model),
        stream: false,
        channel: channel.context(),
        options: channel.options,
        signal: question.signal,
        requestId: question.requestId,
      });
      await releaseBody(result);
    } catch (error) {
      if (GatewayError.is(error)) failure = error;
      else {
        failure = internalError(error);
        this.#logger.error({ err: error, channel: channel.name, operation }, 'a channel test failed in the gateway itself');
      }
    }
    const milliseconds = Date.now() - startedAt;
    const status = failure?.statusCode ?? 200;
    const outcome = failure === undefined ? 'success' : failure.fault === 'channel' ? 'failed' : 'refused';
    this.#observer?.requestFinished({
      operation,
      model: channel.entryFor(model) ?? model,
      requestedModel: model,
      channel: channel.name,
      outcome: failure?.code ?? 'success',
      status,
      attempts: [{ channel: channel.name, milliseconds, outcome, code: failure?.code }],
      milliseconds,
      streamed: false,
      startedAt,
      requestId: question.requestId,
    });
    return {
      name: channel.name,
      model,
      operation,
      ok: failure === undefined,
      status,
      latency_ms: milliseconds,
      error: failure === undefined ? null : { code: scrubSecrets(failure.code), message: scrubSecrets(operatorMessage(failure)) },
    };
  }
}

function modelToTest(channel: Channel, asked: string | undefined): string {
  const listed = [...channel.config.models, ...Object.keys(channel.config.model_map)];
  if (asked === undefined) {
    const first = listed.find((entry) => !entry.includes('*'));
    if (first === undefined) {
      throw invalidRequest(`model: required, since channel "${channel.name}" lists only patterns (${listed.join(', ')}); name a model one of them matches`, { param: 'model' });
    }
    return first;
  }
  if (!channel.lists(asked)) {
    throw invalidRequest(`model: channel "${channel.name}" does not list "${asked}"; it lists ${listed.join(', ')}`, { param: 'model' });
  }
  return asked;
}

function operationToTest(channel: Channel, asked: OperationName | undefined): OperationName {
  const implemented = testableOperations.filter((operation) => channel.provider.operations[operation] !== undefined);
  if (asked !== undefined && implemented.includes(asked)) return asked;
  const served = implemented.length === 0 ? 'none of them' : implemented.join(', ');
  if (asked !== undefined) {
    throw invalidRequest(`operation: channel "${channel.name}" cannot be tested with ${asked}; of ${testableOperations.join(', ')} it serves ${served}`, { param: 'operation' });
  }
  const first = implemented[0];
  if (first === undefined) {
    throw invalidRequest(
      `name: channel "${channel.name}" serves none of ${testableOperations.join(', ')}, the operations a test can send; video tasks, image edits and the asset library are not tested, since each call starts a billed job or changes what the upstream keeps`,
      { param: 'name' },
    );
  }
  return first;
}

/** The error's message, with the upstream's own words where the client's message leaves them out. */
function operatorMessage(error: GatewayError): string {
  const words = error.upstreamMessage;
  return words === undefined || words === '' || error.message.includes(words) ? error.message : `${error.message}; the upstream said: ${words}`;
}

/** Reads away what the answer still holds open (speech bytes), so the connection goes back to the pool. */
async function releaseBody(result: OperationResult): Promise<void> {
  if (result.kind === 'bytes' || result.kind === 'stream') await result.body.dump();
}
