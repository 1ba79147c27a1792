import type Keyv from 'keyv';
import type { ResponsesInputItem } from '../contracts/responses-input-items.js';
import type { ResponsesRequest } from '../contracts/responses-request.js';
import type { StreamOutput } from '../contracts/stream-decoder.js';
import { previousResponseNotFound, storedItemNotFound } from '../errors/error-codes.js';
import { responseIdOfItem } from './responses-ids.js';

/** What is kept of one translated response: the conversation up to and including its output. */
export interface StoredConversation {
  /** The request's input items, after its own expansion: the whole conversation before the answer. */
  input: ResponsesInputItem[];
  /** The response's output items, as the client received them. */
  output: ResponsesInputItem[];
}

/** What {@link ResponsesConversationStore.remember} reads of a Responses object. */
interface AnsweredResponse {
  id: string;
  status: string;
  output: ResponsesInputItem[];
}

const isAnsweredResponse = (value: unknown): value is AnsweredResponse => {
  const response = value as Partial<AnsweredResponse> | null;
  return typeof response?.id === 'string' && typeof response.status === 'string' && Array.isArray(response.output);
};

/** Statuses whose response holds output worth continuing from (OpenAI stores incomplete ones too). */
const answeredStatuses = new Set(['completed', 'incomplete']);

const terminalEvents = new Set(['response.completed', 'response.incomplete']);

/**
 * The Responses object a translated stream ended with: the `response` of its
 * `response.completed` or `response.incomplete` event; undefined for any other output. What
 * the pipeline hands {@link ResponsesConversationStore.remember} after a translated stream.
 */
export function responseOfTerminalEvent(output: StreamOutput): unknown {
  if (output.type !== 'event' || output.event === undefined || !terminalEvents.has(output.event)) return undefined;
  // The object the translation built the event from, when it gives it: no need to parse its text back.
  const event = output.value ?? JSON.parse(output.data);
  return (event as { response?: unknown }).response;
}

/** A TTL as a client reads it in an error: `30 days`, `12 hours`. */
function describeDuration(milliseconds: number): string {
  const hours = milliseconds / 3_600_000;
  if (hours >= 48) return `${Math.round(hours / 24)} days`;
  if (hours >= 1) return `${Math.round(hours)} hours`;
  return `${Math.max(1, Math.round(milliseconds / 60_000))} minutes`;
}

/**
 * The conversations of Responses answers the gateway translated from another format (a
 * family that speaks only chat completions keeps no conversation upstream, so
 * `previous_response_id` has to be served here). Each response is kept under its id with the
 * whole conversation it answered, its input and its output, so a follow-up is expanded with
 * one read; records live in the store with the affinity TTL (`routing.affinity.ttl_ms`), so
 * every gateway process sharing the store can continue a conversation, and they are keyed by
 * the owner (the API key's user), so one user can neither read nor overwrite another's.
 *
 * The pipeline calls {@link expand} before translating a `responses` request for a channel
 * served through a translator, and {@link remember} after the translated answer. On a family
 * that serves Responses natively neither is called: the upstream keeps the conversation and
 * channel affinity sends the follow-up back to it.
 */
export class ResponsesConversationStore {
  readonly #keptFor: string;

  constructor(
    private readonly records: Keyv<StoredConversation>,
    private readonly ttlMilliseconds: number,
  ) {
    this.#keptFor = describeDuration(ttlMilliseconds);
  }

  /**
   * The request with its stored context put in: the conversation of `previous_response_id`
   * (its input and output, before the new input; its `instructions` are not carried over, as
   * OpenAI documents) and every `item_reference` replaced by the output item it names. A
   * request with neither is returned as it is, without touching the store.
   * @throws GatewayError 404 `previous_response_not_found` or `stored_item_not_found` for an id
   *   the owner has nothing under.
   */
  async expand(request: ResponsesRequest, owner: string): Promise<ResponsesRequest> {
    const previousId = request.previous_response_id ?? undefined;
    const items = typeof request.input === 'string' ? undefined : request.input;
    const references = items?.some((item) => item.type === 'item_reference') === true;
    if (previousId === undefined && !references) return request;

    const loaded = new Map<string, StoredConversation | undefined>();
    const load = async (responseId: string) => {
      if (!loaded.has(responseId)) loaded.set(responseId, await this.records.get(this.#key(owner, responseId)));
      return loaded.get(responseId);
    };
    let history: ResponsesInputItem[] = [];
    if (previousId !== undefined) {
      const previous = await load(previousId);
      if (previous === undefined) throw previousResponseNotFound(previousId, this.#keptFor);
      history = [...previous.input, ...previous.output];
    }
    const input = items === undefined ? [userMessage(String(request.input))] : await Promise.all(items.map((item, index) => this.#resolve(item, `input[${index}]`, load)));
    return { ...request, input: [...history, ...input] };
  }

  /**
   * Keeps the conversation `response` (the translated Responses object, or the `response` of
   * a stream's terminal event: {@link responseOfTerminalEvent}) answered: the request's input
   * (as {@link expand} returned it) and the response's output. Nothing is kept when the
   * request said `store: false`, or for a response that did not complete (failed, cancelled).
   * @throws TypeError when `response` is not a Responses object: the caller's mistake.
   */
  async remember(request: ResponsesRequest, response: unknown, owner: string): Promise<void> {
    if (request.store === false) return;
    if (!isAnsweredResponse(response)) throw new TypeError('remember() expects the Responses object of a translated answer');
    if (!answeredStatuses.has(response.status)) return;
    const input = typeof request.input === 'string' ? [userMessage(request.input)] : request.input;
    await this.records.set(this.#key(owner, response.id), { input, output: response.output }, this.ttlMilliseconds);
  }

  /** An input item with an `item_reference` replaced by the stored output item it names. */
  async #resolve(item: ResponsesInputItem, field: string, load: (responseId: string) => Promise<StoredConversation | undefined>): Promise<ResponsesInputItem> {
    if (item.type !== 'item_reference') return item;
    const id = String((item as { id: unknown }).id);
    const responseId = responseIdOfItem(id);
    const stored = responseId === undefined ? undefined : await load(responseId);
    const found = stored?.output.find((candidate) => (candidate as { id?: unknown }).id === id);
    if (found === undefined) throw storedItemNotFound(id, `${field}.id`, this.#keptFor);
    return found;
  }

  /** The record key: the owner first, escaped so that no owner's keys can reach into another's. */
  #key(owner: string, responseId: string): string {
    return `${encodeURIComponent(owner)}:${responseId}`;
  }
}

/** A string input as the message item it stands for. */
const userMessage = (text: string): ResponsesInputItem => ({ type: 'message', role: 'user', content: text });
