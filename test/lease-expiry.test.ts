import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CarrierStore } from '../src/carriers/carrier-store.js';
import { readPollState, releaseLease, renewLease, takeLease } from '../src/store/carriers/poll-state.js';
import { claimDueFetches, createTrackingRequest, finishFetch } from '../src/store/carriers/tracking-requests.js';
import { testConfig } from './support/app-fixture.js';
import { createTestDatabase, dialects, type TestDatabase } from './support/databases.js';

/**
 * The leases of the carrier poller and the tracking fetcher, at their edges, on a frozen clock: a lease "until T"
 * ends at T. A row made or freed at T is free at T, so a fetcher round in the same millisecond as a tracking
 * request (or as the fetch that freed it) takes it at once, instead of one tick later; a holder cannot renew a
 * lease at its expiry instant, when another may already have taken it.
 */
describe.each(dialects)('lease expiry on $name', ({ name, enabled }) => {
  let t: TestDatabase;
  // A day ahead of the wall clock: the carrier's row is made with a lease that ended when it was added.
  const T = new Date(Date.now() + 86_400_000);
  const at = (ms: number) => new Date(T.getTime() + ms);

  beforeAll(async () => {
    if (!enabled) return;
    t = await createTestDatabase(name);
    await new CarrierStore(t.database.db, 'p'.repeat(32), testConfig()).addCarrier({
      carrierCode: 'MAEU',
      eventsUrl: 'https://carrier.example/v2/events',
      auth: { kind: 'none' },
      pollSince: '2026-02-01T00:00:00Z',
    });
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it.skipIf(!enabled)('claims a tracking fetch in the millisecond it was requested, and again in the one it was freed', async () => {
    const db = t.database.db;
    await createTrackingRequest(
      db,
      { carrierCode: 'MAEU', kind: 'TRD', reference: 'MAEUBL900', clientId: 'c1', accountIds: ['a1'] },
      T,
      10,
    );
    const [first, ...more] = await claimDueFetches(db, { owner: 'f1', now: T, leaseMs: 60_000, limit: 10 });
    expect(more).toEqual([]);
    expect(first?.row.reference).toBe('MAEUBL900');
    // Held: no other fetcher takes it before its lease ends.
    expect(await claimDueFetches(db, { owner: 'f2', now: at(59_999), leaseMs: 60_000, limit: 10 })).toEqual([]);
    const freedAt = at(1_000);
    const freed = await finishFetch(db, first!.row.id, first!.token, freedAt, {
      next_fetch_at: freedAt.toISOString(),
      last_fetched_at: freedAt.toISOString(),
    });
    expect(freed).toBe(true);
    expect((await claimDueFetches(db, { owner: 'f2', now: freedAt, leaseMs: 60_000, limit: 10 })).map((c) => c.row.id)).toEqual([
      first!.row.id,
    ]);
  });

  it.skipIf(!enabled)("takes a carrier's lease in the millisecond it was released, and a lease cannot be renewed at its end", async () => {
    const db = t.database.db;
    expect(await takeLease(db, 'MAEU', 'p1', T, 60_000, true)).toBe(true);
    expect(await takeLease(db, 'MAEU', 'p2', at(59_999), 60_000, true)).toBe(false);
    await releaseLease(db, 'MAEU', 'p1', { now: at(5_000), nextPollAt: at(5_000), error: null });
    expect(await takeLease(db, 'MAEU', 'p2', at(5_000), 60_000)).toBe(true);
    expect((await readPollState(db, 'MAEU'))?.lease_owner).toBe('p2');
    expect(await renewLease(db, 'MAEU', 'p2', at(64_999), 60_000)).toBe(true);
    // Renewed at +64,999 ms: until +124,999; at that instant it is over.
    expect(await renewLease(db, 'MAEU', 'p2', at(124_999), 60_000)).toBe(false);
    expect(await takeLease(db, 'MAEU', 'p3', at(124_999), 60_000, true)).toBe(true);
  });
});
