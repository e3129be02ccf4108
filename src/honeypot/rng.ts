/** A random source in [0, 1). Injected so tests and the simulation can replay a call exactly. */
export type Rng = () => number;

/** Small seeded generator (mulberry32): deterministic, fast, good enough for choosing lines. */
export function seededRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(items: readonly T[], rng: Rng): T {
  if (items.length === 0) throw new Error('pick from an empty list');
  return items[Math.min(items.length - 1, Math.floor(rng() * items.length))] as T;
}
