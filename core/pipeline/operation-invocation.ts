import type { QuotaHold } from '../billing/quota-ledger.js';
import type { OperationName } from '../contracts/provider/operation-call.js';
import type { TaskAccepted } from '../contracts/provider/operation-results.js';
import type { Usage } from '../contracts/usage.js';
import type { ProviderLogger } from '../contracts/provider/provider-host.js';
import type { RequestLine } from '../logging/request-line.js';
import type { StreamEncoder } from '../streaming/stream-encoder.js';
import type { TokenView } from '../tokens/token-record.js';
import type { Readable } from 'node:stream';
import type { AbortWatch } from '../http/abort-flag.js';
import type { NewUsageRecord } from '../usage/usage-record.js';

/** The questions about a task, asked of the channel that accepted it, unbilled (`channel-call.ts`), never as model requests. */
export const taskQueryOperations = ['video.status', 'video.content', 'video.moderation'] as const satisfies readonly OperationName[];

/** The operations a model request runs through the pipeline: every one but the {@link taskQueryOperations}. */
export type PipelineOperation = Exclude<OperationName, (typeof taskQueryOperations)[number]>;

/** Whether `operation` is one a model request runs through the pipeline. */
export const isPipelineOperation = (operation: OperationName): operation is PipelineOperation => !(taskQueryOperations as readonly string[]).includes(operation);

/** One client request to a model operation, as a route hands it to the pipeline. */
export interface OperationInvocation {
  operation: PipelineOperation;
  /** The validated client request. */
  request: unknown;
  model: string;
  stream: boolean;
  token: TokenView;
  requestId: string;
  /** Aborted when the client disconnects. */
  clientSignal: AbortWatch;
  logger: ProviderLogger;
  /** The request's one log line; the pipeline writes it when the request is over. */
  line: RequestLine;
  /** How to write a stream to this client; required when `stream` is true. */
  encoder?: StreamEncoder;
  /** The route's estimate of the usage: reserved for when the family has no estimate of its own (see `steps/prepare-and-estimate.ts`). */
  estimate: Usage;
  /** A key an earlier answer reported (`previous_response_id`): the request goes back to the channel that produced it. */
  affinityKey?: string;
  /** A channel the request must go to and nowhere else (a remix of a video that exists only there). */
  pinTo?: string;
  /**
   * The models to try, in order, after `model`'s channels fail with a retryable error: the
   * request's own `models` list (its first entry is `model`), which replaces the config's
   * `fallbacks` for it.
   */
  models?: readonly string[];
}

/** What the route sends back. */
export type InvocationOutcome =
  | { kind: 'json'; status: number; body: unknown; contentType?: string }
  | { kind: 'stream'; contentType: string; readable: Readable }
  | { kind: 'bytes'; contentType: string; readable: Readable }
  /**
   * A long-running task was accepted; its quota hold is the caller's to store and settle, and
   * `usage` (absent with the usage log off) is its submission's usage record, to complete and
   * write when it settles.
   */
  | { kind: 'task'; accepted: TaskAccepted; channel: string; group: string; hold: QuotaHold; unitsIfSucceeded: number; usage?: NewUsageRecord };
