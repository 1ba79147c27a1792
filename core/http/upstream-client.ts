import { Agent, type Dispatcher } from 'undici';
import type { UpstreamHttp, UpstreamRequest, UpstreamResponse } from '../contracts/provider/upstream-http.js';
import { Deadline } from './deadline.js';
import { defaultMaxResponseBytes } from './read-whole-body.js';
import { upstreamResponseOf } from './upstream-response-of.js';
import { mapUndiciError } from './map-undici-error.js';

/** Connection settings of {@link UndiciUpstreamHttp}. */
export interface UndiciUpstreamHttpOptions {
  /** Open connections per upstream origin; requests beyond it wait for one. Defaults to 1024. */
  connectionsPerOrigin?: number;
  /** How long an idle keep-alive connection stays open. Defaults to 10 s. */
  keepAliveTimeoutMilliseconds?: number;
  /** The connect timeout of the agent made up front; other values get their own. Defaults to 10 s. */
  connectTimeoutMilliseconds?: number;
}

/**
 * The gateway's shared upstream client, on undici's `request()` over keep-alive agents.
 * Each request gets the channel's timeouts: connect, first byte (`headersTimeout`), idle
 * (`bodyTimeout`, the longest gap between body chunks) and total (an abort deadline covering
 * headers and body). Failures, also those while the body is read, reject with gateway
 * errors: 502/504 and retryable for connect errors and timeouts, 499 when the caller's
 * signal aborted. A body read whole holds at most the request's `maxResponseBytes` (64 MiB
 * without one). Close it when the gateway stops.
 */
export class UndiciUpstreamHttp implements UpstreamHttp {
  readonly #agents = new Map<number, Agent>();
  readonly #connections: number;
  readonly #keepAliveTimeout: number;

  constructor(options: UndiciUpstreamHttpOptions = {}) {
    this.#connections = options.connectionsPerOrigin ?? 1024;
    this.#keepAliveTimeout = options.keepAliveTimeoutMilliseconds ?? 10_000;
    this.#agentFor(options.connectTimeoutMilliseconds ?? 10_000);
  }

  async request(request: UpstreamRequest): Promise<UpstreamResponse> {
    const { timeouts } = request;
    const url = new URL(request.url);
    const deadline = new Deadline(timeouts.totalMilliseconds, request.signal);
    const context = { callerSignal: request.signal, deadline, timeouts };
    let response: Dispatcher.ResponseData;
    try {
      response = await this.#agentFor(timeouts.connectMilliseconds).request({
        origin: url.origin,
        path: url.pathname + url.search,
        method: request.method,
        headers: request.headers,
        body: request.body,
        signal: deadline.signal,
        headersTimeout: timeouts.firstByteMilliseconds,
        bodyTimeout: timeouts.idleMilliseconds,
      });
    } catch (error) {
      deadline.clear();
      throw mapUndiciError(error, { ...context, phase: 'response' });
    }
    return upstreamResponseOf(response, deadline, context, request.maxResponseBytes ?? defaultMaxResponseBytes);
  }

  /** Closes every connection once the requests in flight have finished. */
  async close(): Promise<void> {
    await Promise.all([...this.#agents.values()].map((agent) => agent.close()));
    this.#agents.clear();
  }

  // undici sets the connect timeout on an agent's connector, not per request, so each
  // distinct connect timeout gets its own agent. Channels share a handful of values, so this
  // stays a few agents; they do not share sockets, which only costs a connection per origin.
  #agentFor(connectMilliseconds: number): Agent {
    let agent = this.#agents.get(connectMilliseconds);
    if (agent === undefined) {
      agent = new Agent({
        connections: this.#connections,
        pipelining: 1,
        keepAliveTimeout: this.#keepAliveTimeout,
        keepAliveMaxTimeout: Math.max(this.#keepAliveTimeout, 60_000),
        connect: { timeout: connectMilliseconds },
      });
      this.#agents.set(connectMilliseconds, agent);
    }
    return agent;
  }
}
