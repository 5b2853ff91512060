import { describe, expect, it } from 'vitest';
import { FrequencySketch } from '../src/store/shipments/frequency-sketch.js';

describe('FrequencySketch', () => {
  it('estimates at least the lookups counted, and tells a frequent id from rare ones', () => {
    const sketch = new FrequencySketch(1_000);
    for (let i = 0; i < 5; i++) sketch.increment(42);
    for (let id = 1_000; id < 1_500; id++) sketch.increment(id);
    expect(sketch.estimate(42)).toBeGreaterThanOrEqual(5);
    expect(sketch.estimate(7)).toBeLessThan(5);
    const rare = Array.from({ length: 500 }, (_, i) => sketch.estimate(1_000 + i));
    expect(rare.filter((e) => e >= 5).length).toBeLessThan(10);
  });

  it('saturates at 15 and halves everything after ten times its width in additions, so old popularity fades', () => {
    const sketch = new FrequencySketch(64); // width 64: halves at 640 additions
    for (let i = 0; i < 20; i++) sketch.increment(1);
    expect(sketch.estimate(1)).toBe(15);
    for (let id = 100; id < 100 + 700; id++) sketch.increment(id);
    expect(sketch.estimate(1)).toBeLessThan(15);
  });
});
