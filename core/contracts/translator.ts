import type { OperationRequests } from './operation-requests.js';
import type { OperationName } from './provider/operation-call.js';
import type { StreamOutput } from './stream-decoder.js';
import type { Usage } from './usage.js';

/** What a translator knows of the request it translates. */
export interface TranslationContext {
  /** The model the client asked for: the `model` of every answer in the client's format. */
  model: string;
  /** The gateway's id for the request, for ids the served format does not give (a Responses id, a Messages id). */
  requestId: string;
  /** When the request arrived, in Unix seconds: `created` / `created_at` of the answer. */
  createdSeconds: number;
  /** Whether the client asked for a stream. */
  stream: boolean;
}

/** The served operation to call, and its request. */
export interface TranslatedRequest<Served extends OperationName = OperationName> {
  operation: Served;
  request: OperationRequests[Served];
}

/**
 * Turns one request's stream of served-format events into the client format's. Pure and
 * synchronous, as a {@link StreamDecoder} is: it is stacked on the provider's decoder, so
 * its outputs are what the pump relays.
 *
 * `event` outputs are the served format's (their `data` is its JSON text) and must come out as
 * the client format's, with `content` and `outputCharacters` kept true to the model output they
 * carry. `usage`, `affinity` and `error` outputs must be passed on unchanged: the gateway bills
 * the served usage, never a translation of it. A `usage` output is also where the client
 * format's own usage fields (a Responses `response.completed`, a Messages `message_delta`)
 * are filled from.
 */
export interface StreamTranslation {
  /** The client-format outputs for one output of the served stream (possibly none). */
  push(output: StreamOutput): StreamOutput[];
  /** The client-format outputs after the served stream ended: the closing events. */
  end(): StreamOutput[];
}

/**
 * Serves one client operation on a provider that implements another: a Responses request
 * on a family that speaks only chat completions, say. Translators know formats, never
 * vendors, so each one is written once and serves every family whose provider implements
 * its served side.
 *
 * A translator is chosen for a channel only when the channel's provider implements every
 * operation of {@link served} and not the client's own; a provider's own operation always wins,
 * and of several translators that could serve one channel, the first of the config's
 * `translators` list does. The plugin's `prepare` then runs on the served request, as it does
 * on a client's, so a translator need not know the family behind the channel.
 *
 * Loaded at start like a provider plugin: a module whose default export is a translator,
 * named in the config's `translators` list (built-in names, paths, packages).
 */
export interface Translator<Client extends OperationName = OperationName, Served extends OperationName = OperationName> {
  /** A stable name for logs and config, such as `responses-to-chat`. */
  readonly name: string;
  /** The operation the client called. */
  readonly client: Client;
  /** The operations {@link request} may call: usually one (embeddings call one of two native ones). */
  readonly served: readonly Served[];
  /**
   * The served request for the client's validated request. Pure, no I/O. Throws
   * `invalidRequest(message, { param })` (a 400) for what the served format cannot say,
   * naming the client's field, rather than dropping it silently.
   */
  request(request: OperationRequests[Client], context: TranslationContext): TranslatedRequest<Served>;
  /**
   * The client-format body for a JSON answer of `operation`, one of {@link served}. `body` is
   * the served operation's JSON answer, parsed (a provider that answers JSON text, passing an
   * upstream's bytes through, has it parsed first). `usage` is what the gateway bills for it:
   * the client format's usage fields are written from it, exactly. `request` is the client's
   * validated request, for what its format echoes back (a Responses object's `instructions`
   * and `tools`, whether a chat stream asked for usage).
   */
  answer(body: unknown, usage: Usage, operation: Served, context: TranslationContext, request: OperationRequests[Client]): unknown;
  /**
   * A fresh translation of one streamed answer of `operation`, for the client's validated
   * `request`. Absent where the client's operation never streams (embeddings).
   */
  stream?(operation: Served, context: TranslationContext, request: OperationRequests[Client]): StreamTranslation;
}

/** Identity helper that types a translator definition. */
export function defineTranslator<Client extends OperationName, Served extends OperationName>(translator: Translator<Client, Served>): Translator<Client, Served> {
  return translator;
}
