/**
 * How often each shipment id was looked up lately, approximately: a count-min sketch of 4-bit-like counters
 * (saturating at 15) in four rows, halved every `sampleSize` increments so that old popularity fades (the
 * frequency part of TinyLFU, Einziger, Friedman and Manes 2017). SnapshotCache asks it whether a shipment that
 * would enter a full cache is looked up more often than the one it would push out.
 *
 * An estimate is never below the true count since the last halving (less its share of halvings); collisions
 * only make it higher. Memory is fixed: `width` bytes a row.
 */
export class FrequencySketch {
  readonly #rows: Uint8Array[];
  readonly #mask: number;
  readonly #sampleSize: number;
  #additions = 0;

  /** `expected`: about how many distinct ids are in play (the width is the next power of two, at least 64). */
  constructor(expected: number) {
    let width = 64;
    while (width < expected && width < 1 << 24) width *= 2;
    this.#mask = width - 1;
    this.#rows = Array.from({ length: 4 }, () => new Uint8Array(width));
    this.#sampleSize = 10 * width;
  }

  /** Counts one lookup of `id`. */
  increment(id: number): void {
    let added = false;
    for (let row = 0; row < 4; row++) {
      const counters = this.#rows[row] as Uint8Array;
      const at = this.#index(id, row);
      const count = counters[at] as number;
      if (count < 15) {
        counters[at] = count + 1;
        added = true;
      }
    }
    if (added && ++this.#additions >= this.#sampleSize) this.#halve();
  }

  /** Lookups of `id` counted lately (an upper estimate). */
  estimate(id: number): number {
    let least = 15;
    for (let row = 0; row < 4; row++) least = Math.min(least, (this.#rows[row] as Uint8Array)[this.#index(id, row)] as number);
    return least;
  }

  #halve(): void {
    for (const counters of this.#rows) for (let i = 0; i < counters.length; i++) counters[i] = (counters[i] as number) >> 1;
    this.#additions = Math.floor(this.#additions / 2);
  }

  /** An independent-enough hash of the id per row (a multiply-xorshift mix with a per-row seed). */
  #index(id: number, row: number): number {
    let h = Math.imul(id ^ SEEDS[row]!, 0x9e3779b1);
    h ^= h >>> 15;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    return h & this.#mask;
  }
}

const SEEDS = [0x7f4a7c15, 0x2545f491, 0x6a09e667, 0x3c6ef372];
