/** A small seeded pseudo-random source: the same seed gives the same sequence, so a fuzz case can be replayed. */
export interface SeededRandom {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, below). */
  int(below: number): number;
  /** An integer in [low, high]. */
  between(low: number, high: number): number;
  /** True with probability `probability`. */
  chance(probability: number): boolean;
  pick<Item>(items: readonly Item[]): Item;
}

/** mulberry32 (Tommy Ettinger's 32-bit generator): tiny, fast and good enough to choose test inputs. */
export function seededRandom(seed: number): SeededRandom {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
  const int = (below: number) => Math.floor(next() * below);
  return {
    next,
    int,
    between: (low, high) => low + int(high - low + 1),
    chance: (probability) => next() < probability,
    pick: (items) => items[int(items.length)] as (typeof items)[number],
  };
}
