/**
 * Work a handler does at most once per client request, however many channels of its plugin
 * the request tries: the reference images a family downloads before its upstream call, say.
 * A plugin's `prepare` creates one in the request it prepares, so it lives exactly as long
 * as the request, and the handler of each attempt asks it for the value. The work itself
 * stays in the handler, after the reservation: `prepare` runs before any quota or rate limit
 * is checked, and a request that is refused there must cost the gateway no download.
 *
 * A failed run is forgotten, so the next channel's attempt runs the work again: it may have
 * failed only because the attempt that ran it was aborted (its timeout, its signal).
 */
export class OncePerRequest<Value> {
  #pending: Promise<Value> | undefined;

  /** The value: `work`'s promise on the first call (or the first after a failure), the same promise after. */
  get(work: () => Promise<Value>): Promise<Value> {
    if (this.#pending !== undefined) return this.#pending;
    const pending = work();
    this.#pending = pending;
    pending.catch(() => {
      if (this.#pending === pending) this.#pending = undefined;
    });
    return pending;
  }
}
