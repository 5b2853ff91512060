import { afterEach, describe, expect, it } from 'vitest';
import { CarrierStore } from '../src/carriers/carrier-store.js';
import type { Fetch } from '../src/carriers/events-client.js';
import { CarrierPoller } from '../src/carriers/poller.js';
import { TrackingFetcher } from '../src/carriers/tracking-fetcher.js';
import { requestTracking } from '../src/carriers/tracking-request-service.js';
import { listCarriersCommand } from '../src/cli/carrier-commands.js';
import { testConfig } from './support/app-fixture.js';
import { createTestDatabase, dialects, type TestDatabase } from './support/databases.js';
import { FakeDcsaPublisher } from './support/fake-dcsa-publisher.js';
import { rawTransportEvent } from './support/ingest-fixtures.js';

/**
 * One back-off per carrier for every instance (docs/carriers.md "Back-off"), on each store: two instances (a
 * poller and a tracking fetcher each, sharing one database and one controllable clock) and one carrier that
 * answers 429 with `Retry-After: 30`. Neither instance calls the carrier during those 30 s, whichever of its
 * workers would; calls resume at their end; `tracking carrier list` shows the back-off meanwhile.
 */

const T0 = Date.parse('2026-11-27T12:00:00.000Z');
const CARRIER = 'MAEU';

describe.each(dialects)('carrier back-off shared by instances on $name', ({ name, enabled }) => {
  let t: TestDatabase;
  let publisher: FakeDcsaPublisher;
  afterEach(async () => {
    await publisher?.close();
    await t?.destroy();
  });

  it.skipIf(!enabled)("honours a carrier's Retry-After on every instance's poller and fetcher, then calls again", async () => {
    let clock = T0;
    const now = () => new Date(clock);
    // Who called the carrier, and when on the shared clock.
    const calls: { who: string; at: number }[] = [];
    const recording =
      (who: string): Fetch =>
      (input, init) => {
        calls.push({ who, at: clock - T0 });
        return fetch(input, init);
      };
    publisher = await FakeDcsaPublisher.start();
    publisher.events = [
      rawTransportEvent(1, { documentReferences: [{ documentReferenceType: 'TRD', documentReferenceValue: 'MAEUBL1' }] }),
    ];
    publisher.script = { 0: { status: 429, retryAfter: '30' } };
    t = await createTestDatabase(name);
    const config = testConfig();
    const carriers = new CarrierStore(t.database.db, 'p'.repeat(32), config, now);
    await carriers.addCarrier({ carrierCode: CARRIER, eventsUrl: publisher.eventsUrl, pollSince: '2024-01-01T00:00:00Z' });
    const principal = { clientId: 'client-a', accountIds: ['acme'], scopes: [] };
    for (const reference of ['MAEUBL1', 'MAEUBL2', 'MAEUBL3']) {
      await requestTracking(t.database, config, principal, { transportDocumentReference: reference }, now());
    }

    // A long inline wait would hide the other instance: each worker hands a wait over 5 s back to its schedule.
    const instance = (who: string) => ({
      poller: new CarrierPoller({
        database: t.database,
        carriers,
        config,
        now,
        fetch: recording(`${who} poller`),
        sleep: async (ms) => void (clock += ms),
        maxInlineWaitMs: 5000,
        log: () => undefined,
      }),
      fetcher: new TrackingFetcher({
        database: t.database,
        carriers,
        config,
        now,
        fetch: recording(`${who} fetcher`),
        sleep: async (ms) => void (clock += ms),
        maxInlineWaitMs: 5000,
        log: () => undefined,
      }),
    });
    const a = instance('A');
    const b = instance('B');

    // Instance A's poller is told 429, Retry-After: 30.
    const [refused] = await a.poller.runOnce({ force: true });
    expect(refused?.error).toMatch(/429/);
    expect(calls).toEqual([{ who: 'A poller', at: 0 }]);
    const listed = await carriers.getCarrier(CARRIER);
    expect(listed?.backoff).toMatchObject({ until: new Date(T0 + 30_000).toISOString(), reason: expect.stringMatching(/429/) });
    const out: string[] = [];
    await listCarriersCommand(t.database, config, {}, {
      stdout: { write: (s: string) => out.push(s) },
      stderr: { write: () => true },
      now,
    } as never);
    expect(out.join('')).toMatch(/BACKOFF_UNTIL/);
    expect(out.join('')).toContain(new Date(T0 + 30_000).toISOString());

    // During the 30 s, every worker of both instances runs, due or not (the pollers forced): none calls the carrier.
    for (const at of [1_000, 15_000, 24_999]) {
      clock = T0 + at;
      for (const worker of [b.poller, b.fetcher, a.fetcher, a.poller]) {
        if (worker instanceof CarrierPoller) await worker.runOnce({ force: true });
        else await worker.runOnce();
      }
    }
    expect(calls, JSON.stringify(calls)).toHaveLength(1);

    // 1 s before the end, the other instance's poller waits out the rest (under its 5 s) and calls at the end.
    clock = T0 + 29_000;
    const [polled] = await b.poller.runOnce({ force: true });
    expect(polled).toMatchObject({ error: null, events: 1 });
    expect(calls.slice(1)).toEqual([{ who: 'B poller', at: 30_000 }]);
    // The fetchers' deferred references are due at the end too, and asked then.
    const fetched = [...(await b.fetcher.runOnce()), ...(await a.fetcher.runOnce())];
    expect(fetched.map((r) => r.outcome).sort()).toEqual(['empty', 'empty', 'unchanged']);
    expect(calls.filter((c) => c.who.endsWith('fetcher'))).toHaveLength(3);
    expect(calls.every((c) => c.at === 0 || c.at >= 30_000)).toBe(true);
    expect((await carriers.getCarrier(CARRIER))?.backoff).toBeNull();
  });

  it.skipIf(!enabled)(
    'backs every instance off a carrier whose calls keep failing (5xx), doubling, and forgets it on an answer',
    async () => {
      let clock = T0;
      const now = () => new Date(clock);
      let calls = 0;
      publisher = await FakeDcsaPublisher.start();
      // Every try of two polls fails (5 tries each), then the carrier answers.
      publisher.script = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [i, { status: 503 }]));
      t = await createTestDatabase(name);
      const config = testConfig();
      const carriers = new CarrierStore(t.database.db, 'p'.repeat(32), config, now);
      await carriers.addCarrier({ carrierCode: CARRIER, eventsUrl: publisher.eventsUrl, pollSince: '2024-01-01T00:00:00Z' });
      const poller = (sleep: (ms: number) => void) =>
        new CarrierPoller({
          database: t.database,
          carriers,
          config,
          now,
          fetch: (input, init) => (calls++, fetch(input, init)),
          sleep: async (ms) => sleep(ms),
          log: () => undefined,
        });
      // The inline retries' waits do not move the clock: the run spends its 5 tries at T0.
      await poller(() => undefined).runOnce({ force: true });
      expect(calls).toBe(5);
      expect((await carriers.getCarrier(CARRIER))?.backoff).toMatchObject({
        until: new Date(T0 + 10_000).toISOString(),
        failuresInARow: 1,
      });
      // Another instance, 5 s later: no call (the 5 s left are waited out inline, then it calls and fails again).
      clock = T0 + 5_000;
      const waits: number[] = [];
      await poller((ms) => {
        waits.push(ms);
        clock += ms;
      }).runOnce({ force: true });
      expect(waits[0]).toBe(5_000);
      expect(calls).toBe(10);
      // Two calls in a row failed: 20 s now.
      const second = (await carriers.getCarrier(CARRIER))?.backoff;
      expect(second?.failuresInARow).toBe(2);
      expect(Date.parse(second?.until ?? '') - clock).toBe(20_000);
      clock = Date.parse(second?.until ?? '');
      const [ok] = await poller(() => undefined).runOnce({ force: true });
      expect(ok?.error).toBeNull();
      expect(calls).toBe(11);
      expect((await carriers.getCarrier(CARRIER))?.backoff).toBeNull();
      expect((await t.database.db.selectFrom('carrier_source').select('backoff_failures').executeTakeFirstOrThrow()).backoff_failures).toBe(
        0,
      );
    },
  );
});
