import type { Reservation } from '../billing/quota-ledger.js';
import type { PriceConfig } from '../config/config-schema.js';
import type { TranslatedRequest, TranslationContext, Translator } from '../contracts/translator.js';
import type { Usage } from '../contracts/usage.js';
import type { GatewayError } from '../errors/gateway-error.js';
import { unlimitedSlot, type ConcurrencySlot } from '../limits/concurrency-limiter.js';
import { unlimitedAdmission, type RateAdmission } from '../limits/rate-admission.js';
import type { Attempt } from '../routing/plan-attempts.js';
import type { TokenView } from '../tokens/token-record.js';
import type { InvocationOutcome, OperationInvocation, PipelineOperation } from './operation-invocation.js';
import type { PipelineServices } from './pipeline-services.js';
import { PreparedRequests } from './prepared-requests.js';
import type { UsageAttempt } from '../usage/usage-record.js';

/** One try of a channel, as the request's log line, the observer and its usage record report it. */
export type AttemptRecord = UsageAttempt;

/** What translators made of one client request: what they know of it, and each one's served request, translated once for every channel it serves. */
export interface RequestTranslations {
  readonly context: TranslationContext;
  readonly requests: Map<Translator, TranslatedRequest>;
}

/** A model to try once the ones before it failed: as the client (or the config) named it, what it resolves to, its price. */
export interface FallbackModel {
  requested: string;
  model: string;
  price: PriceConfig | undefined;
}

/**
 * A refusal of an earlier model (`fallbacks_on: [content_filter]`), kept while the fallback
 * models are tried: if none of them answers, the client gets it (see `steps/keep-refusal.ts`).
 */
export interface KeptRefusal {
  /** The model, price and translations it was answered under, restored to deliver it. */
  readonly model: string;
  readonly price: PriceConfig | undefined;
  readonly translations: RequestTranslations | undefined;
  /** A blocked prompt: the error the client gets, as without fallbacks. */
  readonly error?: GatewayError;
  /** An answer (JSON, or a primed stream read to its end): sends it, as it would have been sent at once. */
  readonly deliver?: () => Promise<InvocationOutcome>;
  /** Lets go of an answer that will not be sent (a fallback answered). */
  readonly release?: () => void;
}

/**
 * Everything one model request carries through the steps of {@link ModelRequestPipeline}:
 * each step reads what the ones before it set and adds its own part. Fields are filled in
 * the order the pipeline runs: plan, price, estimate, admission, reservation, then the
 * attempts, the answer (`result`), the usage it is billed by, and how it ended.
 */
export interface RequestContext {
  readonly invocation: OperationInvocation;
  /** The services in force when the request started: it finishes on them whatever a reload swaps in meanwhile. */
  readonly services: PipelineServices;
  readonly token: TokenView;
  /** The model the client asked for, as it named it (an alias stays an alias). */
  readonly requestedModel: string;
  /** The model it is routed, priced and billed as: the alias's target, else the requested model; after a fallback, the model tried now. */
  model: string;
  /** The models still to try after this one's channels fail (see `steps/fall-back.ts`); empty for nearly every request. */
  readonly fallbacks: FallbackModel[];
  readonly operation: PipelineOperation;
  /** The token's groups in routing order (one group, or the `auto` walk). */
  groups: readonly string[];
  /** The channels still to try, in routing order (see {@link planRoute}). */
  plan: Iterator<Attempt> | undefined;
  /** The channel tried first, planned before any quota is touched; undefined when the plan is empty. */
  firstAttempt: Attempt | undefined;
  /** What each channel's provider makes of the client's request, prepared once per plugin. */
  readonly prepared: PreparedRequests;
  /** Made when a channel a translator serves is first tried; undefined while the providers serve the client's operation themselves. */
  translations: RequestTranslations | undefined;
  /**
   * The client's request as translators read it: a Responses request with its stored
   * conversation put in (see `expandConversation`), any other as the client sent it. Set
   * before a translated channel is first tried; undefined while none was.
   */
  translatorRequest: unknown;
  price: PriceConfig | undefined;
  /** The usage reserved for: the family's estimate of its prepared request, else the route's. */
  estimate: Usage;
  admission: RateAdmission;
  /** The request's place among the requests in flight of its key and group; freed once when it ends. */
  slot: ConcurrencySlot;
  reservation: Reservation | undefined;
  /** Every try so far, in order. */
  readonly attempts: AttemptRecord[];
  /** What the route sends back, once a channel has answered. */
  result: InvocationOutcome | undefined;
  /** The usage the request is billed by, once known. */
  usage: Usage | undefined;
  /** The quota units its settlement charges for that usage, once settled (a refund leaves it unset). */
  units: number | undefined;
  /** The channel (and group) that answered, once one did. */
  served: Attempt | undefined;
  /** Why the request failed, when it did. */
  failure: GatewayError | undefined;
  /** The first refusal a fallback model is trying to do better than; undefined for nearly every request. */
  refusal: KeptRefusal | undefined;
  /** Milliseconds since the epoch: when the request arrived, and when its answer's first byte went out (a stream's headers). */
  readonly timings: { readonly startedAt: number; firstByteAt?: number };
}

/** A fresh context for `invocation` under `services`, whose model stands for `model` (an alias's target): nothing planned, reserved or tried yet. */
export function createRequestContext(invocation: OperationInvocation, services: PipelineServices, model = invocation.model): RequestContext {
  return {
    invocation,
    services,
    token: invocation.token,
    requestedModel: invocation.model,
    model,
    fallbacks: [],
    operation: invocation.operation,
    groups: [],
    plan: undefined,
    firstAttempt: undefined,
    prepared: new PreparedRequests(invocation.operation, invocation.request),
    translations: undefined,
    translatorRequest: undefined,
    price: undefined,
    estimate: invocation.estimate,
    admission: unlimitedAdmission,
    slot: unlimitedSlot,
    reservation: undefined,
    attempts: [],
    result: undefined,
    usage: undefined,
    units: undefined,
    served: undefined,
    failure: undefined,
    refusal: undefined,
    timings: { startedAt: Date.now(), firstByteAt: undefined },
  };
}

/** The translator of the attempt that answered; undefined when none answered, or its provider served the client's operation itself. */
export function answeredBy(context: RequestContext): string | undefined {
  const last = context.attempts.at(-1);
  return last?.outcome === 'success' ? last.translator : undefined;
}
