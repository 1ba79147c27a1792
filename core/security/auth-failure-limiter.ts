import ipaddr from 'ipaddr.js';
import type { GatewayConfig } from '../config/config-schema.js';
import type { Clock } from '../di/injection-tokens.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { StoreBackend, WindowHit } from '../store/store-backend.js';

/** `security.auth_failures`. */
export type AuthFailureSettings = GatewayConfig['security']['auth_failures'];

// Bounds this process's memory of locked networks whatever the number an attacker has: past
// it the oldest lock is forgotten, so that network is refused again only at its next counted
// failure.
const maxLockedAddresses = 100_000;

/** What a credential looked like when it failed: its kind and first characters, the neighbourhood a guesser works in. */
export type CredentialPrefix = `${'api-key' | 'login'}:${string}`;

/**
 * The network a client address is counted under: an IPv4 address as it is (an IPv4-mapped
 * IPv6 one too), an IPv6 address by its /64, the smallest block a network is given, so an
 * attacker cannot step around the count by taking another address of its own /64 for each
 * guess (which would also grow the store by a window per guess).
 */
export function countedNetworkOf(address: string): string {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address);
  } catch {
    return address;
  }
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const [a, b, c, d] = (parsed as ipaddr.IPv6).parts.map((part) => part.toString(16));
  return `${a}:${b}:${c}:${d}::/64`;
}

/** 429 `too_many_auth_failures` with `Retry-After`, the seconds until the counting window resets. */
export function tooManyAuthFailures(retryInMilliseconds: number, why: string): GatewayError {
  const seconds = Math.max(1, Math.ceil(retryInMilliseconds / 1000));
  return new GatewayError(
    429,
    'too_many_auth_failures',
    `too many failed authentications ${why}; wait ${seconds} s (Retry-After) before trying again, and send the credential the operator gave you: a wrong one keeps this refusal going`,
    { headers: { 'retry-after': String(seconds) } },
  );
}

/**
 * Slows down the guessing of API keys and login tokens. A failed authentication (a
 * well-formed credential that matched nothing) is counted in the store, so the count holds
 * across instances and workers, in two fixed windows of `window_ms`: one per client address,
 * one per credential prefix (many addresses guessing one key's neighbourhood). A failure that
 * takes either count past its maximum is answered 429 instead of 401, and the address it came
 * from is locked on this process until that window resets: every further request from it is
 * refused before any lookup, at the cost of one map read. A right credential from another
 * address keeps working, even with a locked prefix: the prefix counter only turns failures
 * into refusals (and locks each address that fails on it). Successful authentications and
 * requests without a well-formed credential never touch the store.
 */
export class AuthFailureLimiter {
  readonly #settings: AuthFailureSettings;
  readonly #backend: StoreBackend;
  readonly #clock: Clock;
  /** Locked addresses and when their lock ends (milliseconds since the epoch), oldest first. */
  readonly #lockedUntil = new Map<string, number>();
  /** When the last of those locks ends: from then on none holds, and the map is emptied. */
  #lastLockEnds = 0;

  constructor(settings: AuthFailureSettings, backend: StoreBackend, clock: Clock) {
    this.#settings = settings;
    this.#backend = backend;
    this.#clock = clock;
  }

  /** How many networks this process holds a lock for. */
  get lockedNetworks(): number {
    return this.#lockedUntil.size;
  }

  /** Throws 429 `too_many_auth_failures` when `address` is locked on this process; no store call. */
  refuseLockedAddress(address: string): void {
    // The usual case, nothing locked, costs no parse of the address.
    if (this.#lockedUntil.size === 0) return;
    const now = this.#clock.now();
    // Locks are read only when their own address comes back, so those of an attack that
    // stopped would stay, and keep every client on the parsing path, until all have ended.
    if (now >= this.#lastLockEnds) {
      this.#lockedUntil.clear();
      return;
    }
    const network = countedNetworkOf(address);
    const until = this.#lockedUntil.get(network);
    if (until === undefined) return;
    const left = until - now;
    if (left > 0) throw tooManyAuthFailures(left, 'from this address');
    this.#lockedUntil.delete(network);
  }

  /**
   * Counts a failed authentication from `address` with a credential starting as `prefix`.
   * Returns the error to answer with: `failure` (the 401) while both counts are within their
   * maximum, else a 429 that replaces it, and the address is locked.
   */
  async countFailure(failure: GatewayError, address: string, prefix: CredentialPrefix): Promise<GatewayError> {
    const { max_per_address, max_per_key_prefix, window_ms } = this.#settings;
    const network = countedNetworkOf(address);
    const count = (key: string, maximum: number): Promise<WindowHit | undefined> =>
      maximum === 0 ? Promise.resolve(undefined) : this.#backend.hitWindow(key, window_ms);
    const [byAddress, byPrefix] = await Promise.all([
      count(`auth-failures:address:${network}`, max_per_address),
      count(`auth-failures:key-prefix:${prefix}`, max_per_key_prefix),
    ]);
    const addressOver = byAddress !== undefined && byAddress.count > max_per_address;
    const prefixOver = byPrefix !== undefined && byPrefix.count > max_per_key_prefix;
    if (!addressOver && !prefixOver) return failure;
    const retryIn = Math.max(addressOver ? byAddress.resetInMilliseconds : 0, prefixOver ? byPrefix.resetInMilliseconds : 0);
    this.#lock(network, this.#clock.now() + retryIn);
    return tooManyAuthFailures(
      retryIn,
      addressOver ? `from this address (more than ${max_per_address} in ${window_ms / 1000} s)` : `with keys starting like this one (more than ${max_per_key_prefix} in ${window_ms / 1000} s)`,
    );
  }

  #lock(network: string, until: number): void {
    this.#lockedUntil.delete(network);
    if (this.#lockedUntil.size >= maxLockedAddresses) {
      const oldest = this.#lockedUntil.keys().next().value;
      if (oldest !== undefined) this.#lockedUntil.delete(oldest);
    }
    this.#lockedUntil.set(network, until);
    this.#lastLockEnds = Math.max(this.#lastLockEnds, until);
  }
}
