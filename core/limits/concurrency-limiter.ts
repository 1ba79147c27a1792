import type { RateLimitsConfig } from '../config/config-schema.js';
import type { OperationName } from '../contracts/provider/operation-call.js';
import type { ProviderLogger } from '../contracts/provider/provider-host.js';
import { tooManyConcurrentRequests } from '../errors/error-codes.js';
import type { LeaseKeeper } from '../store/lease-keeper.js';
import type { SlotClaim, SlotLease, StoreBackend } from '../store/store-backend.js';
import { countsTowardRateLimits } from './rate-limited-operations.js';

/** A request's place among the requests in flight of its token and group; {@link release} takes effect once. */
export interface ConcurrencySlot {
  /** Frees the place; never rejects (a store that cannot take it leaves the slot to expire with its lease). */
  release(): Promise<void>;
}

const nothingToDo = Promise.resolve();

/** The slot of a request no concurrency limit applies to. */
export const unlimitedSlot: ConcurrencySlot = { release: () => nothingToDo };

/** A limit that applies to a request, and how a refusal names it. */
interface ConcurrencyLimit {
  claim: SlotClaim;
  holder: string;
  setting: string;
}

/** The `max_concurrent` limits that apply to a request of token `tokenId` in `group`; 0 adds none. */
function limitsFor(limits: RateLimitsConfig, tokenId: number, group: string): ConcurrencyLimit[] {
  const applying: ConcurrencyLimit[] = [];
  if (limits.tokens.max_concurrent > 0) {
    applying.push({ claim: { key: `concurrent:token:${tokenId}`, limit: limits.tokens.max_concurrent }, holder: 'this API key', setting: 'rate_limits.tokens.max_concurrent' });
  }
  const groupLimit = limits.groups[group]?.max_concurrent ?? 0;
  if (groupLimit > 0) {
    applying.push({ claim: { key: `concurrent:group:${group}`, limit: groupLimit }, holder: `group "${group}"`, setting: `rate_limits.groups.${group}.max_concurrent` });
  }
  return applying;
}

/** True when the config sets any `max_concurrent`, so a gateway without one skips the limiter entirely. */
export function hasConcurrencyLimits(limits: RateLimitsConfig): boolean {
  return [limits.tokens, ...Object.values(limits.groups)].some((limit) => limit.max_concurrent > 0);
}

/**
 * Enforces `max_concurrent` (`rate_limits.tokens` and `rate_limits.groups.<group>`): how many
 * requests of one API key, or of one group's keys together, may be in flight at once. Each
 * request takes one slot in the store for its whole life (however many channels it tries),
 * counted across every instance sharing the store, and frees it once when it ends: its answer
 * sent, its stream over or abandoned by the client, its failure, or a video task accepted
 * (the task's life is not counted). A slot lives under the instance's lease
 * ({@link LeaseKeeper}), so the slots of an instance that dies stop counting once the lease
 * runs out. Over a limit, the request is refused with 429 `too_many_concurrent_requests`
 * before it touches quota.
 */
export class ConcurrencyLimiter {
  readonly #backend: StoreBackend;
  readonly #limits: RateLimitsConfig;
  readonly #leases: LeaseKeeper;

  constructor(backend: StoreBackend, limits: RateLimitsConfig, leases: LeaseKeeper) {
    this.#backend = backend;
    this.#limits = limits;
    this.#leases = leases;
  }

  /** Takes a slot for the request, or throws 429 naming the limit that is full and the key that sets it. */
  async admit(request: { tokenId: number; group: string; operation: OperationName; logger: ProviderLogger }): Promise<ConcurrencySlot> {
    if (!countsTowardRateLimits(request.operation)) return unlimitedSlot;
    const limits = limitsFor(this.#limits, request.tokenId, request.group);
    if (limits.length === 0) return unlimitedSlot;
    const lease = this.#leases.lease();
    const acquired = await this.#backend.acquireSlots(
      limits.map((limit) => limit.claim),
      lease,
    );
    if (!acquired.granted) {
      const full = limits[acquired.refused] as ConcurrencyLimit;
      throw tooManyConcurrentRequests(
        `too many concurrent requests: ${full.holder} allows ${full.claim.limit} at once (${full.setting}); retry once one of them has ended`,
      );
    }
    const slot: SlotLease = { id: lease.id, keys: limits.map((limit) => limit.claim.key) };
    this.#leases.keepSlot(slot);
    let released: Promise<void> | undefined;
    return {
      release: () => {
        released ??= this.#backend.releaseSlot(slot).then(
          () => this.#leases.dropSlot(slot.id),
          (error: unknown) => {
            // Not renewed any more: the slot stops counting once its lease runs out.
            this.#leases.dropSlot(slot.id);
            request.logger.warn({ err: error }, 'could not free a concurrency slot; it expires with its lease');
          },
        );
        return released;
      },
    };
  }
}
