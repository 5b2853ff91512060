import { afterEach, describe, expect, it } from 'vitest';
import { LoopPressure } from '../src/push/loop-pressure.js';

/**
 * The delivery worker's back-pressure (src/push/loop-pressure.ts): webhook
 * work waits while the event loop it shares with API requests runs late,
 * and goes on at once while the loop keeps time. Asserted by ordering
 * against the loop's own phases, never by elapsed milliseconds (which a
 * loaded machine stretches).
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
    // Not waiting means resolving within the current turn: before a setImmediate queued just before.
    const order: string[] = [];
    setImmediate(() => order.push('next turn'));
    await pressure.pace();
    order.push('paced');
    expect(order).toEqual(['paced']);
  });

  it('holds work back (a bounded while) after the loop was blocked', async () => {
    pressure = new LoopPressure(20);
    // Keep the loop busy for 400 ms in 40 ms slices, as a burst of rendering would.
    const until = Date.now() + 400;
    while (Date.now() < until) {
      busy(40);
      await sleep(2);
    }
    // Holding back means waiting on timers: a 10 ms timer queued just before fires before it goes on.
    const order: string[] = [];
    setTimeout(() => order.push('10 ms timer'), 10);
    await pressure.pace();
    order.push('paced');
    // And it goes on by itself (at most ten 20 ms waits; a hang would fail the test's time-out).
    expect(order).toEqual(['10 ms timer', 'paced']);
  });
});
