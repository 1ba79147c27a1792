import type { QuotaLedger } from '../billing/quota-ledger.js';
import type { GatewayConfig } from '../config/config-schema.js';
import type { ConcurrencyLimiter } from '../limits/concurrency-limiter.js';
import type { RateLimiter } from '../limits/rate-limiter.js';
import type { RunObserver } from '../observability/run-observer.js';
import type { Channel } from '../routing/channel.js';
import type { ChannelAffinity } from '../routing/channel-affinity.js';
import type { CircuitBreaker } from '../routing/circuit-breaker.js';
import type { ModelCatalog } from '../routing/model-catalog.js';
import type { ResponsesConversationStore } from '../conversations/responses-conversation-store.js';
import type { UsageLog } from '../usage/usage-log.js';
import type { InFlightRequests } from './in-flight-requests.js';

/** What the steps of a model request work with, built once at start and shared by every request. */
export interface PipelineServices {
  readonly channels: readonly Channel[];
  readonly breaker: CircuitBreaker;
  readonly catalog: ModelCatalog;
  readonly ledger: QuotaLedger;
  readonly affinity: ChannelAffinity;
  readonly config: GatewayConfig;
  /** Absent: no rate limit applies. */
  readonly limiter?: RateLimiter;
  /** Absent: no concurrency limit applies. */
  readonly concurrency?: ConcurrencyLimiter;
  /** Absent: nobody hears how requests end (unit tests). */
  readonly observer?: RunObserver;
  /** The conversations of translated Responses answers (`previous_response_id`); absent: none is kept (unit tests). */
  readonly conversations?: ResponsesConversationStore;
  /** Absent: no shutdown deadline applies. */
  readonly inFlight?: InFlightRequests;
  /** Where each request's usage record goes; absent with `logs.enabled: false` (and in unit tests): nothing is recorded. */
  readonly usage?: UsageLog;
}
