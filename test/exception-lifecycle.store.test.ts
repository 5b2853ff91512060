import { describe, expect, it } from 'vitest';
import { exceptionIdFor } from '../src/domain/exception-engine.js';
import type { TrackingEvent, TrackingException } from '../src/domain/types.js';
import { clearException } from '../src/store/shipment-writes/exception-clear.js';
import { createTestApp, type TestApp } from './support/app-fixture.js';
import { dialects } from './support/databases.js';
import {
  at,
  CONTAINERS,
  equipmentEvent,
  shipmentMaster,
  transportEvent,
  VESSELS,
  type EquipmentEventSpec,
  type TransportEventSpec,
} from './support/event-builders.js';

/**
 * Issue 8's reproduced cases through the real store, on every dialect: a
 * carrier's bundles are ingested one by one (each at its own clock) and a
 * client polls GET /v2/shipments. What the client once saw never disappears.
 */

const BOOKING = 'LIFE-STORE-1';
const ACCOUNT = 'acct-lifecycle';
const [C1] = CONTAINERS;
const X = { vessel: VESSELS.ALPHA, voyage: '610W' };
const Y = { vessel: VESSELS.CHARLIE, voyage: '620W' };

const onBooking = <S extends object>(spec: S) => ({ ...spec, booking: BOOKING });
const move = (spec: Omit<EquipmentEventSpec, 'booking'>) => equipmentEvent(onBooking(spec));
const call = (spec: Omit<TransportEventSpec, 'booking'>) => transportEvent(onBooking(spec));

function shipment(freeTime: string | null = at(800)) {
  const { references: _references, ...master } = shipmentMaster({ carrierBookingReference: BOOKING, billOfLadingNumber: 'LIFEBL1' });
  return {
    ...master,
    references: {},
    accounts: [ACCOUNT],
    containers: [{ containerNumber: C1, isoType: '45G1', references: { free_time_exp_dt: freeTime } }],
  };
}

const bundle = (events: TrackingEvent[], withShipment: ReturnType<typeof shipment> | null = null) => ({
  carrierCode: 'MAEU',
  ...(withShipment ? { shipments: [withShipment] } : {}),
  events,
});

describe.each(dialects)('exception lifecycle in the store on $name', ({ name, enabled }) => {
  let token: string;

  /** A fresh database for each case, with a client of the shipment's account. */
  async function fresh(): Promise<TestApp> {
    const app = await createTestApp(name);
    ({ token } = await app.tokenFor(ACCOUNT));
    return app;
  }

  async function exceptions(app: TestApp): Promise<TrackingException[]> {
    const response = await app.get('/v2/shipments?billOfLadingNumber=LIFEBL1', token);
    expect(response.status).toBe(200);
    return ((await response.json()) as { shipmentTracking: { exceptions: TrackingException[] } }).shipmentTracking.exceptions;
  }

  it.skipIf(!enabled)('ROLLOVER served, then a load stamped before the departure: RESOLVED EVENT_ACTUALIZED, same ID', async () => {
    const app = await fresh();
    try {
      const plan = move({ type: 'LOAD', classifier: 'PLN', container: C1, port: 'CNSHA', ...X, eventDateTime: at(40), created: at(0) });
      await app.ingest(
        bundle([plan, call({ type: 'DEPA', classifier: 'ACT', port: 'CNSHA', ...X, eventDateTime: at(50), created: at(50) })], shipment()),
        new Date(at(55)),
      );
      const [detected] = await exceptions(app);
      expect(detected).toMatchObject({ exceptionType: 'ROLLOVER', status: 'DETECTED', detectedDateTime: at(50) });
      const late = move({ type: 'LOAD', classifier: 'ACT', container: C1, port: 'CNSHA', ...X, eventDateTime: at(45), created: at(46) });
      await app.ingest(bundle([late]), new Date(at(60)));
      expect(await exceptions(app)).toEqual([
        expect.objectContaining({
          exceptionID: detected?.exceptionID,
          status: 'RESOLVED',
          resolutionType: 'EVENT_ACTUALIZED',
          resolvedDateTime: at(60),
          detectedDateTime: at(50),
          relatedEventID: late.eventID,
        }),
      ]);
    } finally {
      await app.destroy();
    }
  });

  it.skipIf(!enabled)('DEMURRAGE_RISK served CRITICAL, then a gate-out before the window: RESOLVED EVENT_ACTUALIZED', async () => {
    const app = await fresh();
    try {
      const disc = move({
        type: 'DISC',
        classifier: 'ACT',
        container: C1,
        port: 'NLRTM',
        vessel: VESSELS.BRAVO,
        voyage: '611W',
        eventDateTime: at(720),
        created: at(721),
      });
      await app.ingest(bundle([disc], shipment()), new Date(at(810)));
      const [critical] = await exceptions(app);
      expect(critical).toMatchObject({ exceptionType: 'DEMURRAGE_RISK', severity: 'CRITICAL', status: 'DETECTED' });
      await app.ingest(
        bundle([move({ type: 'GTOT', classifier: 'ACT', container: C1, port: 'NLRTM', eventDateTime: at(740), created: at(741) })]),
        new Date(at(820)),
      );
      const after = await exceptions(app);
      expect(after.find((e) => e.exceptionID === critical?.exceptionID)).toMatchObject({
        status: 'RESOLVED',
        resolutionType: 'EVENT_ACTUALIZED',
        detectedDateTime: critical?.detectedDateTime,
      });
    } finally {
      await app.destroy();
    }
  });

  it.skipIf(!enabled)('DEMURRAGE_RISK served WARNING, then the free time moves 10 days: RESOLVED DATA_CORRECTED', async () => {
    const app = await fresh();
    try {
      const disc = move({
        type: 'DISC',
        classifier: 'ACT',
        container: C1,
        port: 'NLRTM',
        vessel: VESSELS.BRAVO,
        voyage: '611W',
        eventDateTime: at(720),
        created: at(721),
      });
      await app.ingest(bundle([disc], shipment(at(800))), new Date(at(760)));
      const [warning] = await exceptions(app);
      expect(warning).toMatchObject({ severity: 'WARNING', status: 'DETECTED' });
      await app.ingest(bundle([], shipment(at(1040))), new Date(at(770)));
      expect(await exceptions(app)).toEqual([
        expect.objectContaining({
          exceptionID: warning?.exceptionID,
          status: 'RESOLVED',
          resolutionType: 'DATA_CORRECTED',
          resolvedDateTime: at(770),
        }),
      ]);
    } finally {
      await app.destroy();
    }
  });

  it.skipIf(!enabled)('a cleared ETA_DELAY stays cleared when an older estimate of the same delay arrives late', async () => {
    const app = await fresh();
    try {
      const arrival = (classifier: 'PLN' | 'EST', delay: number, created: number) =>
        call({
          type: 'ARRI',
          classifier,
          port: 'NLRTM',
          vessel: VESSELS.BRAVO,
          voyage: '611W',
          eventDateTime: at(720 + delay),
          created: at(created),
        });
      await app.ingest(bundle([arrival('PLN', 0, 0), arrival('EST', 20, 48)], shipment(null)), new Date(at(50)));
      const [detected] = await exceptions(app);
      expect(detected).toMatchObject({ exceptionType: 'ETA_DELAY', status: 'DETECTED', detectedDateTime: at(48) });
      expect(await clearException(app.t.database, detected!.exceptionID, 'customer informed', new Date(at(60)))).toMatchObject({
        status: 'cleared',
      });
      const cleared = await exceptions(app);
      expect(cleared).toEqual([expect.objectContaining({ status: 'RESOLVED', resolutionType: 'MANUAL_CLEAR', resolvedDateTime: at(60) })]);
      await app.ingest(bundle([arrival('EST', 25, 30)]), new Date(at(70)));
      expect(await exceptions(app)).toEqual(cleared);
      // Clearing a resolved exception again is refused; nothing changes.
      expect(await clearException(app.t.database, detected!.exceptionID, 'again', new Date(at(71)))).toMatchObject({ status: 'not_open' });
    } finally {
      await app.destroy();
    }
  });

  it.skipIf(!enabled)('an estimate stamped two days ahead is detected no later than its ingest', async () => {
    const app = await fresh();
    try {
      const skewed = call({
        type: 'ARRI',
        classifier: 'EST',
        port: 'NLRTM',
        vessel: VESSELS.BRAVO,
        voyage: '611W',
        eventDateTime: at(750),
        created: at(148),
      });
      const plan = call({
        type: 'ARRI',
        classifier: 'PLN',
        port: 'NLRTM',
        vessel: VESSELS.BRAVO,
        voyage: '611W',
        eventDateTime: at(720),
        created: at(0),
      });
      await app.ingest(bundle([plan, skewed], shipment(null)), new Date(at(100)));
      const response = await app.get('/v2/shipments?billOfLadingNumber=LIFEBL1', token);
      const body = (await response.json()) as {
        transmissionHeader: { transmissionDateTime: string };
        shipmentTracking: { exceptions: TrackingException[] };
      };
      const [e] = body.shipmentTracking.exceptions;
      expect(e).toMatchObject({ status: 'DETECTED', detectedDateTime: at(100), relatedEventID: skewed.eventID });
      expect(e!.detectedDateTime <= body.transmissionHeader.transmissionDateTime).toBe(true);
    } finally {
      await app.destroy();
    }
  });

  it.skipIf(!enabled)(
    'a ROLLOVER whose departure is reported after the load on the next vessel is shown, RESOLVED, in both orders',
    async () => {
      const plan = move({ type: 'LOAD', classifier: 'PLN', container: C1, port: 'CNSHA', ...X, eventDateTime: at(40), created: at(0) });
      const departure = call({ type: 'DEPA', classifier: 'ACT', port: 'CNSHA', ...X, eventDateTime: at(50), created: at(50) });
      const loadOnY = move({
        type: 'LOAD',
        classifier: 'ACT',
        container: C1,
        port: 'CNSHA',
        ...Y,
        eventDateTime: at(122),
        created: at(122),
      });
      const results: TrackingException[][] = [];
      for (const order of [
        [[plan, departure], [loadOnY]],
        [[plan, loadOnY], [departure]],
      ]) {
        const app = await fresh();
        try {
          await app.ingest(bundle(order[0]!, shipment(null)), new Date(at(125)));
          await app.ingest(bundle(order[1]!), new Date(at(130)));
          results.push(await exceptions(app));
        } finally {
          await app.destroy();
        }
      }
      const expected = {
        exceptionID: exceptionIdFor(
          { carrierCode: 'MAEU', carrierBookingReference: BOOKING },
          'ROLLOVER',
          `${C1}/CNSHA/${X.vessel.vesselIMONumber}/${X.voyage}`,
        ),
        exceptionType: 'ROLLOVER',
        status: 'RESOLVED',
        resolutionType: 'EVENT_ACTUALIZED',
        detectedDateTime: at(50),
        resolvedDateTime: at(122),
        relatedEventID: loadOnY.eventID,
      };
      expect(results[0]).toEqual([expect.objectContaining(expected)]);
      expect(results[1]).toEqual([expect.objectContaining(expected)]);
    },
  );
});
