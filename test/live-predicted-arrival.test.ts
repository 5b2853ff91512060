import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AccessCheck } from '../src/auth/access-check.js';
import { trainEta } from '../src/app/eta-training.js';
import { ChangeFeed } from '../src/push/change-feed.js';
import { LiveStreams, type StreamItem } from '../src/push/live-streams.js';
import { BASE, createTestApp, testConfig, type TestApp } from './support/app-fixture.js';
import { createTestDatabase, dialects } from './support/databases.js';
import { bookingOf, voyageBundles, voyageHistory } from './support/voyage-history.js';

/**
 * PREDICTED_ARRIVAL on live streams (shipmentUpdates; docs/push.md, Predicted arrival), on both stores: the history
 * of test/predicted-arrival-push.test.ts ingested through the real ingest path, streams opened over SSE with the
 * webhook subscription's thresholds, the model trained, the carrier's ETA moved, the vessel arrived, at times the
 * test gives (the app's clock). Each crossing reaches a stream that asked once; a stream that did not ask never
 * gets one. No sleeping for a duration: the test waits for items, or for evaluations to have run (counted).
 */

const DAY = 86_400_000;
const HOUR = 3_600_000;
const MINUTE = 60_000;
const NOW = new Date('2026-06-01T00:00:00.000Z');
/** Even: the voyage under way is on the first lane, where the carrier's estimates come two days early. */
const ARRIVED = 24;
const UNDER_WAY = bookingOf(ARRIVED);
const LOOKUP = `carrierCode: "MAEU", carrierBookingReference: "${UNDER_WAY}"`;
const SELECTION = '{ transmissionHeader { triggerType triggeredByEvent } shipmentTracking { carrierBookingReference } }';

/** Reads Server-Sent Events from a response, yielding each data payload parsed. */
async function* events(response: Response): AsyncGenerator<any> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = block
          .split('\n')
          .filter((l) => l.startsWith('data:'))
          .map((l) => l.slice(5).trim())
          .join('');
        if (data) yield JSON.parse(data);
      }
    }
  } finally {
    // The client goes away (the generator's return()): the server's stream is cancelled, and ends.
    await reader.cancel();
  }
}

/** The next event of a stream; fails (rather than hangs) when none comes. */
async function next(stream: AsyncGenerator<any>): Promise<any> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const result = await Promise.race([
      stream.next(),
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('no live update within 15 s')), 15_000))),
    ]);
    if (result.done) throw new Error('the stream completed');
    return result.value;
  } finally {
    clearTimeout(timer);
  }
}

const header = (event: any) => event.data.shipmentUpdates.transmissionHeader as { triggerType: string; triggeredByEvent: string | null };

describe.each(dialects)('PREDICTED_ARRIVAL on live streams on $name', ({ name, enabled }) => {
  let f: TestApp;
  let token: string;
  let clock = NOW;
  /** Evaluations of streams that ran to their prediction (the voyage read), counted. */
  let evaluated = 0;
  const aborts: AbortController[] = [];

  beforeAll(async () => {
    if (!enabled) return;
    const t = await createTestDatabase(name);
    f = await createTestApp(name, {
      testDatabase: t,
      config: testConfig({ TT_ETA_TRAINING: 'false', TT_ETA_MODEL_CHECK_SECONDS: '0', TT_DELIVERY_POLL_MS: '100' }),
      now: () => clock,
      // The stream's timer, in place of TT_EVALUATE_INTERVAL_SECONDS (300 s by default).
      streamEvaluateMs: 100,
    });
    for (const { at, bundle } of voyageHistory({
      count: ARRIVED,
      underWay: 1,
      firstDeparture: new Date(NOW.getTime() - 70 * DAY),
      now: NOW,
    })) {
      await f.ingest(bundle, at);
    }
    ({ token } = await f.tokenFor('acct-eta'));
    const predictions = f.app.services.predictions;
    const voyageOf = predictions.voyageOf.bind(predictions);
    predictions.voyageOf = async (shipment) => {
      const voyage = await voyageOf(shipment);
      evaluated++;
      return voyage;
    };
  }, 120_000);
  afterAll(async () => {
    for (const a of aborts) a.abort();
    await f?.destroy();
    await f?.t.destroy();
  });

  function subscribe(args: string) {
    const abort = new AbortController();
    aborts.push(abort);
    return f.app.fetch(`${BASE}/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream', Authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: `subscription { shipmentUpdates(${LOOKUP}${args}) ${SELECTION} }` }),
      signal: abort.signal,
    });
  }

  /** Waits until at least `count` more evaluations have read their voyage (and then for their pushes to be queued). */
  async function evaluations(count: number): Promise<void> {
    const target = evaluated + count;
    for (let i = 0; evaluated < target; i++) {
      if (i > 3000) throw new Error(`only ${evaluated - target + count} of ${count} evaluations ran`);
      await new Promise((r) => setTimeout(r, 5));
    }
    await new Promise((r) => setImmediate(r));
  }

  /** A carrier event of the voyage under way, at `at`, as test/predicted-arrival-push.test.ts makes it. */
  function carrierEvent(index: number, id: string, changes: Record<string, unknown>): Record<string, unknown> & { eventID: string } {
    const event = (voyageBundles(ARRIVED, NOW.getTime() - 2 * DAY, { arrived: false })[1]!.bundle as { events: Record<string, unknown>[] })
      .events[index]!;
    return { ...event, eventID: id, ...changes };
  }

  it.skipIf(!enabled)('refuses a stream that cannot work, with BAD_USER_INPUT naming the field', async () => {
    const cases: [string, string, RegExp][] = [
      [', triggerTypes: [PREDICTED_ARRIVAL]', 'predictedArrivalShiftHours', /needs predictedArrivalShiftHours or predictedLatenessHours/],
      [
        ', predictedArrivalShiftHours: 12',
        'predictedArrivalShiftHours',
        /predictedArrivalShiftHours needs PREDICTED_ARRIVAL in triggerTypes/,
      ],
      [', triggerTypes: [EVENT_TRIGGER], predictedLatenessHours: 12', 'predictedLatenessHours', /needs PREDICTED_ARRIVAL in triggerTypes/],
      [', triggerTypes: [PREDICTED_ARRIVAL], predictedArrivalShiftHours: 0', 'predictedArrivalShiftHours', /must be at least 1 \(hour\)/],
      [', triggerTypes: [PREDICTED_ARRIVAL], predictedLatenessHours: 721', 'predictedLatenessHours', /must be at most 720 \(30 days\)/],
      [', triggerTypes: [GRANTED]', 'triggerTypes', /triggerTypes may list .*SHIPMENT_MERGED, PREDICTED_ARRIVAL/],
    ];
    for (const [args, property, message] of cases) {
      const first = await next(events(await subscribe(args)));
      const error = first.errors?.[0];
      expect(error?.extensions?.code, JSON.stringify(first)).toBe('BAD_USER_INPUT');
      expect(error.message, JSON.stringify(first)).toMatch(message);
      expect(JSON.stringify(error.extensions), JSON.stringify(first)).toContain(`"property":"${property}"`);
    }
    expect(f.app.services.streams.open).toBe(0);
  });

  it.skipIf(!enabled)(
    'each crossing reaches a stream that asked once, as a Transmission without an event; a stream that did not ask never gets one',
    async () => {
      // Opened before the model: the prediction is the carrier's ETA, on its plan; the starting point, nothing pushed.
      const lateness = events(
        await subscribe(', triggerTypes: [PREDICTED_ARRIVAL, EVENT_TRIGGER, EXCEPTION_DETECTED], predictedLatenessHours: 24'),
      );
      const shift = events(
        await subscribe(', triggerTypes: [PREDICTED_ARRIVAL, EVENT_TRIGGER, EXCEPTION_DETECTED], predictedArrivalShiftHours: 12'),
      );
      const plain = events(await subscribe(''));
      expect(f.app.services.streams.open).toBe(3);
      await evaluations(6);

      // The model moves the prediction two days past the carrier's plan: late by 24 h (the carrier's ETA is not), and
      // moved by more than 12 h. The streams' timers see it.
      await trainEta(f.t.database, { now: () => NOW, batchEvents: 50, pauseMs: 0 });
      for (const stream of [lateness, shift]) {
        const pushed = await next(stream);
        expect(pushed.errors).toBeUndefined();
        expect(pushed.data.shipmentUpdates).toEqual({
          transmissionHeader: { triggerType: 'PREDICTED_ARRIVAL', triggeredByEvent: null },
          shipmentTracking: { carrierBookingReference: UNDER_WAY },
        });
      }
      // Opened now, with the prediction late already: a stream's first evaluation is its starting point, as a webhook
      // subscription's first (the same rule): a lateness crossing the carrier's ETA has not made is pushed by it at
      // once; a move is measured from it, so a shift stream gets nothing yet.
      const lateLateness = events(
        await subscribe(', triggerTypes: [PREDICTED_ARRIVAL, EVENT_TRIGGER, EXCEPTION_DETECTED], predictedLatenessHours: 24'),
      );
      const lateShift = events(
        await subscribe(', triggerTypes: [PREDICTED_ARRIVAL, EVENT_TRIGGER, EXCEPTION_DETECTED], predictedArrivalShiftHours: 12'),
      );
      expect(header(await next(lateLateness))).toEqual({ triggerType: 'PREDICTED_ARRIVAL', triggeredByEvent: null });
      // Evaluated again and again since: the same crossing is not pushed twice.
      await evaluations(10);

      // The carrier's ETA moved three days later: a change on the feed (ETA_DELAY detected) for every stream, and a
      // second move for the shift stream only (the lateness stream was told; the carrier's ETA is late now too).
      clock = new Date(NOW.getTime() + 30 * MINUTE);
      const moved = carrierEvent(1, '00000000-0000-4000-b000-000000000101', {
        eventDateTime: new Date(Date.parse(carrierEvent(1, 'x', {}).eventDateTime as string) + 72 * HOUR).toISOString(),
        eventCreatedDateTime: new Date(NOW.getTime() + 20 * MINUTE).toISOString(),
      });
      await f.ingest({ carrierCode: 'MAEU', events: [moved] }, new Date(NOW.getTime() + 20 * MINUTE));
      expect(header(await next(lateness)).triggerType).toBe('EXCEPTION_DETECTED');
      expect(header(await next(plain)).triggerType).toBe('EXCEPTION_DETECTED');
      // The change and the shift stream's evaluation may come in either order.
      for (const stream of [shift, lateShift]) {
        const two = [header(await next(stream)), header(await next(stream))].map((h) => h.triggerType).sort();
        expect(two).toEqual(['EXCEPTION_DETECTED', 'PREDICTED_ARRIVAL']);
      }
      expect(header(await next(lateLateness)).triggerType).toBe('EXCEPTION_DETECTED');
      await evaluations(10);

      // The vessel arrived: a milestone every stream takes, and after it nothing is pushed any more. Whatever the
      // evaluations since pushed would come before it: nothing did.
      clock = new Date(NOW.getTime() + 45 * MINUTE);
      const arrival = carrierEvent(1, '00000000-0000-4000-b000-000000000102', {
        eventClassifierCode: 'ACT',
        eventDateTime: new Date(NOW.getTime() + 40 * MINUTE).toISOString(),
        eventCreatedDateTime: new Date(NOW.getTime() + 40 * MINUTE).toISOString(),
      });
      await f.ingest({ carrierCode: 'MAEU', events: [arrival] }, new Date(NOW.getTime() + 40 * MINUTE));
      expect(header(await next(lateness))).toEqual({ triggerType: 'EVENT_TRIGGER', triggeredByEvent: arrival.eventID });
      expect(header(await next(shift))).toEqual({ triggerType: 'EVENT_TRIGGER', triggeredByEvent: arrival.eventID });
      for (const stream of [plain, lateLateness, lateShift]) {
        expect(header(await next(stream))).toEqual({ triggerType: 'EVENT_TRIGGER', triggeredByEvent: arrival.eventID });
      }

      // Closed by their clients: each stream ends, its timers with it (the last test below counts the timers).
      for (const stream of [lateness, shift, plain, lateLateness, lateShift]) await stream.return(undefined);
      for (let i = 0; f.app.services.streams.open > 0 && i < 1000; i++) await new Promise((r) => setTimeout(r, 5));
      expect(f.app.services.streams.open).toBe(0);
    },
    60_000,
  );
});

describe('a live stream evaluation (PREDICTED_ARRIVAL)', () => {
  const grant = { clientId: 'eval', kid: 'k', expiresAt: new Date(Date.now() + 3600_000), scopes: ['track-and-trace.read'] };
  const access = { mayStillSee: async () => null } as unknown as AccessCheck;
  const change = {
    cursor: '1',
    changeId: 1,
    shipmentId: 7,
    triggerType: 'EXCEPTION_RESOLVED' as const,
    triggeredByEvent: null,
    exceptionId: null,
    accountId: null,
    createdAt: new Date().toISOString(),
  };

  it('runs as the stream starts, at each change of its shipment (even one the stream does not take) and on its timer, one at a time; its timer ends with the stream', async () => {
    vi.useFakeTimers();
    try {
      const feed = new ChangeFeed({} as never, { pollMs: 60_000, log: () => {} });
      const streams = new LiveStreams(feed, access, { maxPerClient: 5, checkMs: 60_000, evaluateMs: 1000, log: () => {} });
      let running = 0;
      let most = 0;
      let calls = 0;
      const answers = [false, true, false, true, false];
      const evaluation = {
        evaluate: async () => {
          calls++;
          running++;
          most = Math.max(most, running);
          await new Promise((r) => setTimeout(r, 10));
          running--;
          return answers.shift() ?? false;
        },
      };
      const before = vi.getTimerCount();
      const stream = streams.start({ grant, scope: 'track-and-trace.read', shipmentId: 7, accept: () => false, evaluation })!;
      // The starting point, at once.
      expect(calls).toBe(1);
      await vi.advanceTimersByTimeAsync(50);
      // The access check's timer and the evaluation's.
      expect(vi.getTimerCount()).toBe(before + 2);
      feed.publish(change);
      feed.publish(change);
      feed.publish({ ...change, shipmentId: 8 });
      await vi.advanceTimersByTimeAsync(50);
      // Two changes of its shipment while one ran: the second waits for the first, and runs once.
      expect(calls).toBe(3);
      const first = (await stream.next()).value as StreamItem;
      expect(first).toEqual({ predictedArrival: { shipmentId: 7 } });
      await vi.advanceTimersByTimeAsync(2000);
      expect(calls).toBe(5);
      expect((await stream.next()).value).toEqual({ predictedArrival: { shipmentId: 7 } });
      expect(most).toBe(1);
      await stream.return!();
      expect(vi.getTimerCount()).toBe(before);
      await vi.advanceTimersByTimeAsync(5000);
      expect(calls).toBe(5);
      expect(streams.open).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('has no timer without an evaluation, nor when evaluateMs is 0 (changes only)', () => {
    vi.useFakeTimers();
    try {
      const feed = new ChangeFeed({} as never, { pollMs: 60_000, log: () => {} });
      const before = vi.getTimerCount();
      const plain = new LiveStreams(feed, access, { maxPerClient: 5, checkMs: 60_000, evaluateMs: 1000, log: () => {} });
      const a = plain.start({ grant, scope: 'track-and-trace.read', shipmentId: 7, accept: () => true })!;
      expect(vi.getTimerCount()).toBe(before + 1);
      const changesOnly = new LiveStreams(feed, access, { maxPerClient: 5, checkMs: 60_000, evaluateMs: 0, log: () => {} });
      const b = changesOnly.start({
        grant,
        scope: 'track-and-trace.read',
        shipmentId: 7,
        accept: () => true,
        evaluation: { evaluate: async () => false },
      })!;
      expect(vi.getTimerCount()).toBe(before + 2);
      void a.return!();
      void b.return!();
      expect(vi.getTimerCount()).toBe(before);
    } finally {
      vi.useRealTimers();
    }
  });
});
