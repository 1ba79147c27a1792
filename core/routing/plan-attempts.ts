import type { OperationName } from '../contracts/provider/operation-call.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { Channel } from './channel.js';
import type { CircuitBreaker } from './circuit-breaker.js';
import { quoted } from '../errors/client-text.js';
import { operationNotConfigured } from '../errors/error-codes.js';
import { operationRoutes, servedRoutes } from './served-routes.js';

/** One planned try: the channel and the group it is billed under. */
export interface Attempt {
  channel: Channel;
  group: string;
}

/** What a request may try. */
export interface AttemptRequest {
  model: string;
  operation: OperationName;
  /** The token's groups in order: one group, or the `auto_groups` walk. */
  groups: readonly string[];
  /** With `auto`: whether retries may move on to the next group once a group is exhausted. */
  crossGroupRetry: boolean;
  maxAttempts: number;
  /** A channel that must be tried first (it holds the conversation the request continues). */
  pinned?: PinnedChannel;
}

/** The channel a request continues on, and whether it may go elsewhere when that channel fails. */
export interface PinnedChannel {
  name: string;
  /** True: no other channel is tried, and a cooling-down pinned channel is a 503. */
  exclusive: boolean;
}

/** Orders a tier by weighted random choice without replacement; all-zero weights count equally. */
function weightedOrder(channels: Channel[], random: () => number): Channel[] {
  const pool = channels.map((channel) => ({ channel, weight: channel.weight }));
  if (pool.every((entry) => entry.weight === 0)) for (const entry of pool) entry.weight = 1;
  const ordered: Channel[] = [];
  while (pool.length > 0) {
    const total = pool.reduce((sum, entry) => sum + entry.weight, 0);
    let pick = random() * total;
    let index = pool.findIndex((entry) => (pick -= entry.weight) < 0);
    if (index === -1) index = pool.length - 1;
    ordered.push((pool.splice(index, 1)[0] as { channel: Channel }).channel);
  }
  return ordered;
}

/**
 * The channels a request tries, in order, lazily: within a group, priority tiers from the
 * highest, weighted random inside a tier; the first group that serves the model, then (with
 * `crossGroupRetry`) the next ones. A channel is never tried twice, and a channel whose
 * circuit is open is passed over. Throws 404 when no channel serves the model, 503 when
 * every channel that does is cooling down.
 */
export function* planAttempts(
  channels: readonly Channel[],
  request: AttemptRequest,
  breaker: CircuitBreaker,
  random: () => number = Math.random,
): Generator<Attempt> {
  const tried = new Set<Channel>();
  let served = false;
  let attempts = 0;
  let shortestCooldown = Number.POSITIVE_INFINITY;
  const pinned = pinnedAttempt(channels, request);
  if (pinned !== undefined) {
    served = true;
    if (breaker.tryAcquire(pinned.channel.name)) {
      tried.add(pinned.channel);
      attempts += 1;
      yield pinned;
      if (attempts >= request.maxAttempts || request.pinned?.exclusive === true) return;
    } else if (request.pinned?.exclusive === true) {
      const seconds = Math.max(1, Math.ceil(breaker.retryInMilliseconds(pinned.channel.name) / 1000));
      throw new GatewayError(
        503,
        'affinity_channel_unavailable',
        `the channel holding this conversation is cooling down after failures; retry in ${seconds} s`,
        { headers: { 'retry-after': String(seconds) } },
      );
    } else {
      shortestCooldown = breaker.retryInMilliseconds(pinned.channel.name);
    }
  }
  for (const group of request.groups) {
    const candidates = channels.filter((channel) => channel.groups.has(group) && channel.serves(request.model, request.operation));
    if (candidates.length === 0) continue;
    const priorities = [...new Set(candidates.map((channel) => channel.priority))].sort((a, b) => b - a);
    for (const priority of priorities) {
      const tier = weightedOrder(
        candidates.filter((channel) => channel.priority === priority),
        random,
      );
      for (const channel of tier) {
        if (tried.has(channel)) continue;
        served = true;
        if (!breaker.tryAcquire(channel.name)) {
          shortestCooldown = Math.min(shortestCooldown, breaker.retryInMilliseconds(channel.name));
          continue;
        }
        tried.add(channel);
        attempts += 1;
        yield { channel, group };
        if (attempts >= request.maxAttempts) return;
      }
    }
    if (!request.crossGroupRetry) break;
  }
  if (attempts > 0) return;
  if (!served) {
    // A channel that lists the model and could run the operation with other options: say what to set.
    const unconfigured = channels.find((channel) => request.groups.some((group) => channel.groups.has(group)) && channel.provider.unavailable?.[request.operation] !== undefined && channel.lists(request.model));
    if (unconfigured !== undefined) {
      throw operationNotConfigured(unconfigured.name, request.model, request.operation, unconfigured.provider.unavailable?.[request.operation] ?? '');
    }
    // A model that is served, but not on this route (a chat model on the images route, a chat-only family on Responses).
    if (channels.some((channel) => request.groups.some((group) => channel.groups.has(group)) && channel.lists(request.model))) throw modelNotOnRoute(channels, request);
    throw new GatewayError(404, 'model_not_found', `no channel serves model ${quoted(request.model)} for this API key's group (${request.groups.join(', ') || 'none'})`, {
      param: 'model',
    });
  }
  const seconds = Math.max(1, Math.ceil(shortestCooldown / 1000));
  throw new GatewayError(503, 'no_available_channel', `every channel for model ${quoted(request.model)} is cooling down after failures; retry in ${seconds} s`, {
    headers: { 'retry-after': String(seconds) },
  });
}

/**
 * 404 `model_not_on_route`: the model exists for this key, so "no such model" would send the
 * client looking for a typo; it is served elsewhere, so the message names where, as the
 * client would call it (`POST /v1/chat/completions`), with the routes of this one.
 */
function modelNotOnRoute(channels: readonly Channel[], request: AttemptRequest): GatewayError {
  const here = operationRoutes[request.operation].join(' or ') || request.operation;
  const elsewhere = servedRoutes(channels, request.groups, request.model);
  const where = elsewhere.length === 0 ? 'no route a client calls with a model' : elsewhere.join(', ');
  return new GatewayError(404, 'model_not_on_route', `model ${quoted(request.model)} is not served on ${here}; it is served on ${where}`, { param: 'model' });
}

/** The pinned channel as an attempt, when it still serves the model in one of the request's groups (config may have changed since). */
function pinnedAttempt(channels: readonly Channel[], request: AttemptRequest): Attempt | undefined {
  if (request.pinned === undefined) return undefined;
  const channel = channels.find((candidate) => candidate.name === request.pinned?.name);
  if (channel === undefined || !channel.serves(request.model, request.operation)) return undefined;
  const group = request.groups.find((name) => channel.groups.has(name));
  return group === undefined ? undefined : { channel, group };
}
