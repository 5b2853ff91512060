import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrackingEvent } from '../src/domain/types.js';
import { ingestBundle } from '../src/ingest/ingest-bundle.js';
import { parseBundle } from '../src/ingest/parse-bundle.js';
import { createSubscription } from '../src/store/push/webhook-subscriptions.js';
import { createTestDatabase, dialects, type TestDatabase } from './support/databases.js';
import { at, CONTAINERS, equipmentEvent, shipmentMaster, transportEvent, VESSELS } from './support/event-builders.js';

/**
 * The replay property (README "Loading data"; docs/architecture.md, Exception
 * rules), on each store: for any history of bundles, ingesting it and then
 * re-ingesting any of its bundles again, any subset in any order and later,
 * leaves every shipment, snapshot, exception (IDs, status, content), the
 * change log and the webhook outbox exactly as they were.
 *
 * Bundles state two shipments' master data (free time, port of discharge,
 * containers, accounts) with or without a generatedDateTime or an
 * updatedDateTime (some ahead of the clock), and carry events from a pool
 * that can raise and resolve every kind of exception. Each run uses its own
 * bookings in one database per store (events link by booking only), so a
 * run costs a few ingests, not a migration.
 */

const RUNS = Number(process.env.TT_PROPERTY_RUNS ?? 25);
const [C1, C2] = CONTAINERS;
const X = { vessel: VESSELS.ALPHA, voyage: '610W' };
const Y = { vessel: VESSELS.CHARLIE, voyage: '620W' };

/** Every event one shipment's bundles may carry: plans, estimates and actuals of its voyage and containers. */
function eventPool(booking: string): TrackingEvent[] {
  const arrival = (classifier: 'PLN' | 'EST' | 'ACT', delay: number, created: number) =>
    transportEvent({ type: 'ARRI', classifier, port: 'NLRTM', ...X, eventDateTime: at(720 + delay), created: at(created), booking });
  const move = (type: 'LOAD' | 'DISC' | 'GTOT' | 'GTIN', classifier: 'PLN' | 'ACT', container: string, hours: number, extra = {}) =>
    equipmentEvent({
      type,
      classifier,
      container,
      port: type === 'LOAD' ? 'CNSHA' : 'NLRTM',
      ...(type === 'LOAD' || type === 'DISC' ? X : {}),
      eventDateTime: at(hours),
      created: at(classifier === 'PLN' ? 0 : hours + 1),
      booking,
      ...extra,
    });
  return [
    arrival('PLN', 0, 0),
    arrival('EST', 20, 48),
    arrival('EST', 60, 100),
    arrival('EST', 2, 200),
    arrival('ACT', 30, 751),
    transportEvent({ type: 'DEPA', classifier: 'ACT', port: 'CNSHA', ...X, eventDateTime: at(50), created: at(50), booking }),
    move('LOAD', 'PLN', C1, 40),
    move('LOAD', 'ACT', C1, 45),
    move('LOAD', 'PLN', C2, 40, Y),
    move('DISC', 'ACT', C1, 722),
    move('DISC', 'ACT', C2, 723),
    move('GTOT', 'ACT', C1, 780),
    move('GTIN', 'ACT', C1, 900, { empty: 'EMPTY' }),
  ];
}

/** A time some bundles state themselves at: around the ingestion clock, sometimes ahead of it. */
const statedTime = fc.option(
  fc.integer({ min: 600, max: 800 }).map((h) => at(h)),
  { nil: undefined },
);

const shipmentEntry = fc.record({
  index: fc.integer({ min: 0, max: 1 }),
  freeTime: fc.constantFrom(null, at(730), at(800), at(1040)),
  discharge: fc.constantFrom('NLRTM', 'DEHAM'),
  twoContainers: fc.boolean(),
  accounts: fc.subarray(['acct-a', 'acct-b']),
  updatedDateTime: statedTime,
});

const bundleSpec = fc.record({
  generatedDateTime: statedTime,
  shipments: fc.uniqueArray(shipmentEntry, { maxLength: 2, selector: (s) => s.index }),
  events: fc.subarray([...Array(26).keys()]),
});

type BundleSpec = typeof bundleSpec extends fc.Arbitrary<infer T> ? T : never;

function rawBundle(run: number, spec: BundleSpec): unknown {
  const bookings = [`R${run}-A`, `R${run}-B`];
  const pool = bookings.flatMap(eventPool);
  return {
    carrierCode: 'MAEU',
    ...(spec.generatedDateTime ? { generatedDateTime: spec.generatedDateTime } : {}),
    shipments: spec.shipments.map((s) => {
      const {
        references: _references,
        portOfDischarge: _pod,
        ...master
      } = shipmentMaster({
        carrierBookingReference: bookings[s.index],
        billOfLadingNumber: `R${run}BL${s.index}`,
      });
      const container = (number: string) => ({ containerNumber: number, isoType: '45G1', references: { free_time_exp_dt: s.freeTime } });
      return {
        ...master,
        portOfDischarge: { unLocationCode: s.discharge },
        references: {},
        accounts: s.accounts,
        containers: s.twoContainers ? [container(C1), container(C2)] : [container(C1)],
        ...(s.updatedDateTime ? { updatedDateTime: s.updatedDateTime } : {}),
      };
    }),
    events: spec.events.map((i) => pool[i]),
  };
}

describe.each(dialects)('replaying ingested bundles on $name', ({ name, enabled }) => {
  let t: TestDatabase;
  beforeAll(async () => {
    if (enabled) t = await createTestDatabase(name);
  });
  afterAll(async () => t?.destroy());

  async function ingest(raw: unknown, now: string): Promise<void> {
    const parsed = parseBundle(raw);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    await ingestBundle(t.database, parsed.bundle, { now: () => new Date(now) });
  }

  /** Everything derived about the run's shipments, in a stable order. */
  async function state(run: number) {
    const db = t.database.db;
    const shipments = await db
      .selectFrom('shipment')
      .selectAll()
      .where('carrier_booking_reference', 'in', [`R${run}-A`, `R${run}-B`])
      .orderBy('id')
      .execute();
    const ids = shipments.map((s) => s.id);
    if (ids.length === 0) return { shipments };
    return {
      shipments,
      containers: await db.selectFrom('shipment_container').selectAll().where('shipment_id', 'in', ids).execute(),
      accounts: await db.selectFrom('shipment_account').selectAll().where('shipment_id', 'in', ids).execute(),
      snapshots: await db.selectFrom('shipment_snapshot').selectAll().where('shipment_id', 'in', ids).execute(),
      links: await db.selectFrom('shipment_event').selectAll().where('shipment_id', 'in', ids).execute(),
      exceptions: await db.selectFrom('tracking_exception').selectAll().where('shipment_id', 'in', ids).orderBy('exception_id').execute(),
      changes: await db.selectFrom('change_log').selectAll().where('shipment_id', 'in', ids).orderBy('id').execute(),
      deliveries: await db.selectFrom('webhook_delivery').selectAll().where('shipment_id', 'in', ids).orderBy('id').execute(),
    };
  }

  it.skipIf(!enabled)(
    `ingesting a history, then any of its bundles again, changes nothing (${RUNS} histories)`,
    async () => {
      let run = 0;
      /** Histories whose outbox got deliveries, and those with a RESOLVED exception: the property must be exercised, not vacuous. */
      let withDeliveries = 0;
      let withResolutions = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(bundleSpec, { minLength: 1, maxLength: 6 }),
          fc.infiniteStream(fc.boolean()),
          fc.func(fc.integer()),
          async (history, pick, order) => {
            run += 1;
            const bundles = history.map((spec) => rawBundle(run, spec));
            // Both shipments exist from the start, each with a subscription, so that every transition reaches the outbox.
            await ingest(
              rawBundle(run, { generatedDateTime: undefined, shipments: [0, 1].map((index) => ({ ...baseEntry, index })), events: [] }),
              at(690),
            );
            for (const index of [0, 1]) await subscribe(run, index);
            for (const [i, bundle] of bundles.entries()) await ingest(bundle, at(700 + 5 * i));
            const before = await state(run);
            if ((before.deliveries?.length ?? 0) > 0) withDeliveries++;
            if (before.exceptions?.some((e) => e.status === 'RESOLVED')) withResolutions++;

            const chosen = bundles.filter(() => pick.next().value);
            const replay = (chosen.length > 0 ? chosen : bundles)
              .map((bundle, i) => ({ bundle, key: order(i) }))
              .sort((a, b) => a.key - b.key);
            for (const [j, { bundle }] of replay.entries()) await ingest(bundle, at(700 + 5 * bundles.length + 60 + j));
            expect(await state(run)).toEqual(before);
          },
        ),
        { numRuns: RUNS },
      );
      expect(withDeliveries).toBeGreaterThan(RUNS / 4);
      expect(withResolutions).toBeGreaterThan(0);
      console.log(`${name}: ${RUNS} histories, ${withDeliveries} with deliveries, ${withResolutions} with a resolved exception`);
    },
    240_000,
  );

  const baseEntry = {
    freeTime: null,
    discharge: 'NLRTM' as const,
    twoContainers: true,
    accounts: ['acct-a'],
    updatedDateTime: at(500),
  };

  async function subscribe(run: number, index: number): Promise<void> {
    const shipment = await t.database.db
      .selectFrom('shipment')
      .select('id')
      .where('carrier_booking_reference', '=', `R${run}-${index === 0 ? 'A' : 'B'}`)
      .executeTakeFirstOrThrow();
    await createSubscription(t.database.db, {
      clientId: `tt_run${run}`,
      accountId: 'acct-a',
      shipmentId: shipment.id,
      lookup: { billOfLadingNumber: `R${run}BL${index}` },
      callbackUrl: 'https://hooks.example.com/tracking',
      triggerTypes: ['EVENT_TRIGGER', 'EXCEPTION_DETECTED', 'EXCEPTION_RESOLVED'],
      scheduledIntervalSeconds: null,
      sealedSecret: 'v1.x.y.z',
      now: new Date(at(690)),
    });
  }
});
