import { afterEach, describe, expect, it } from 'vitest';
import { LoopPressure } from '../src/push/loop-pressure.js';

/**
 * The delivery worker's back-pressure (src/push/loop-pressure.ts): webhook
 * work waits while the event loop it shares with API requests runs late,
 * and goes on at once while the loop keeps time.
 */
describe('LoopPressure', () => {
  let pressure: LoopPressure | undefined;
  afterEach(() => pressure?.stop());

  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const busy = (ms: number) => {
    const until = Date.now() + ms;
    while (Date.now() < until);
  };

  it('does not hold work back while the loop keeps time', async () => {
    // A threshold no scheduling hiccup of a loaded CI machine reaches.
    pressure = new LoopPressure(1_000);
    await sleep(250);
    const started = Date.now();
    await pressure.pace();
    expect(Date.now() - started).toBeLessThan(15);
  });

  it('holds work back (a bounded while) after the loop was blocked', async () => {
    pressure = new LoopPressure(20);
    // Keep the loop busy for 400 ms in 40 ms slices, as a burst of rendering would.
    const until = Date.now() + 400;
    while (Date.now() < until) {
      busy(40);
      await sleep(2);
    }
    const started = Date.now();
    await pressure.pace();
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(15);
    // Bounded: 200 ms of waiting at most, plus timer slack.
    expect(waited).toBeLessThan(1_000);
  });
});
