import { randomInt } from 'node:crypto';

/**
 * The shipments the service under test has been asked for in this run (by index), so that a first-lookup
 * scenario can pick shipments it never was: its every request then reads a stored snapshot nobody asked for
 * before, whatever ran earlier in the run. Requests to the baseline are not marked: it shares no cache with the
 * service.
 */
export class KeySpace {
  readonly #touched: Uint8Array;

  constructor(readonly capacity: number) {
    this.#touched = new Uint8Array(capacity);
  }

  touch(index: number): number {
    this.#touched[index] = 1;
    return index;
  }

  touched(index: number): boolean {
    return this.#touched[index] === 1;
  }

  /** A random index below `range`, marked. */
  random(range: number): number {
    return this.touch(randomInt(range));
  }

  /** The `count` lowest indexes below `range` never asked for (fewer when there are not that many), marked. */
  lowestFresh(count: number, range: number): number[] {
    const out: number[] = [];
    for (let i = 0; i < range && out.length < count; i++) if (!this.touched(i)) out.push(this.touch(i));
    return out;
  }

  /** `count` indexes below `range` (all of them when fewer), spread over it as spreadFresh spreads them, marked. */
  spread(count: number, range: number): number[] {
    return this.#stride(count, range, false);
  }

  /**
   * `count` indexes below `range` never asked for, spread over the whole range (a stride through it from a
   * random start, the stride near range / golden ratio and prime to range, so consecutive picks land far apart),
   * marked. Fewer when there are not that many.
   */
  spreadFresh(count: number, range: number): number[] {
    return this.#stride(count, range, true);
  }

  #stride(count: number, range: number, freshOnly: boolean): number[] {
    const out: number[] = [];
    if (range <= 0) return out;
    let stride = Math.max(1, Math.floor(range * 0.6180339887)) | 1;
    while (gcd(stride, range) !== 1) stride++;
    const start = randomInt(range);
    for (let k = 0; k < range && out.length < count; k++) {
      const index = (start + k * stride) % range;
      if (!freshOnly || !this.touched(index)) out.push(this.touch(index));
    }
    return out;
  }
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}
