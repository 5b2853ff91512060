import { randomInt } from 'node:crypto';

/**
 * The shipments the service under test has been asked for in this run (by index), so that a first-lookup
 * scenario can pick shipments it never was: its every request then reads a stored snapshot nobody asked for
 * before, whatever ran earlier in the run. Requests to the baseline are not marked: it shares no cache with the
 * service. Shipments can be set aside for a later first-lookup scenario (`reserve`): nothing else picks them.
 */
const FRESH = 0;
const TOUCHED = 1;
const RESERVED = 2;

export class KeySpace {
  readonly #state: Uint8Array;

  constructor(readonly capacity: number) {
    this.#state = new Uint8Array(capacity);
  }

  touch(index: number): number {
    this.#state[index] = TOUCHED;
    return index;
  }

  /** Asked for already, or set aside. */
  touched(index: number): boolean {
    return this.#state[index] !== FRESH;
  }

  reserved(index: number): boolean {
    return this.#state[index] === RESERVED;
  }

  /** A random index below `range`, not one set aside, marked. */
  random(range: number): number {
    for (;;) {
      const index = randomInt(range);
      if (!this.reserved(index)) return this.touch(index);
    }
  }

  /**
   * Sets aside `count` shipments of from..range-1 never asked for, spread over it (as spreadFresh), for a later
   * first-lookup scenario: they are handed out to nothing else, and count as asked for once used.
   */
  reserve(count: number, from: number, range: number): number[] {
    return this.#stride(count, from, range, true, RESERVED);
  }

  /** Marks shipments set aside (reserve) as asked for: their first-lookup scenario is running. */
  use(indexes: readonly number[]): number[] {
    for (const index of indexes) this.touch(index);
    return [...indexes];
  }

  /** The `count` lowest indexes below `range` never asked for (fewer when there are not that many), marked. */
  lowestFresh(count: number, range: number): number[] {
    const out: number[] = [];
    for (let i = 0; i < range && out.length < count; i++) if (!this.touched(i)) out.push(this.touch(i));
    return out;
  }

  /** `count` indexes below `range` (all of them when fewer), not ones set aside, spread as spreadFresh spreads them, marked. */
  spread(count: number, range: number): number[] {
    return this.#stride(count, 0, range, false, TOUCHED);
  }

  /**
   * `count` indexes below `range` never asked for, spread over the whole range (a stride through it from a
   * random start, the stride near range / golden ratio and prime to range, so consecutive picks land far apart),
   * marked. Fewer when there are not that many.
   */
  spreadFresh(count: number, range: number): number[] {
    return this.#stride(count, 0, range, true, TOUCHED);
  }

  /** Up to `count` indexes of from..range-1 (fresh ones only, or any not set aside), spread, marked `mark`. */
  #stride(count: number, from: number, range: number, freshOnly: boolean, mark: number): number[] {
    const out: number[] = [];
    const size = range - from;
    if (size <= 0) return out;
    let stride = Math.max(1, Math.floor(size * 0.6180339887)) | 1;
    while (gcd(stride, size) !== 1) stride++;
    const start = randomInt(size);
    for (let k = 0; k < size && out.length < count; k++) {
      const index = from + ((start + k * stride) % size);
      if (freshOnly ? this.touched(index) : this.reserved(index)) continue;
      this.#state[index] = mark;
      out.push(index);
    }
    return out;
  }
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}
