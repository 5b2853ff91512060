import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trainEta } from '../src/app/eta-training.js';
import { evaluatePredictedArrivals } from '../src/push/predicted-arrival-pass.js';
import { setWritesCompact } from '../src/store/encoding/write-forms.js';
import { PredictedArrivals } from '../src/store/eta/predicted-arrivals.js';
import { drainDeliveries, type TestApp } from './support/app-fixture.js';
import { dialects } from './support/databases.js';
import { bookingOf, createVoyageHistoryApp, voyageBundles } from './support/voyage-history.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

/**
 * PREDICTED_ARRIVAL end to end (docs/push.md, Predicted arrival), on both stores: a history ingested through
 * the real ingest path, subscriptions made through POST /v2/subscriptions, the model trained, and the evaluation
 * (src/push/predicted-arrival-pass.ts) run as serve runs it, at times the test gives. Each crossing is pushed once:
 * evaluating again, from a fresh instance (a restart, another instance), or from two at once, pushes nothing more;
 * the deliveries go out through the delivery queue to a real receiver.
 */

const DAY = 86_400_000;
const HOUR = 3_600_000;
const NOW = new Date('2026-06-01T00:00:00.000Z');
/** Even: the voyage under way is on the first lane, where the carrier's estimates come two days early. */
const ARRIVED = 24;
const UNDER_WAY = bookingOf(ARRIVED);
const LOOKUP = { carrierCode: 'MAEU', carrierBookingReference: UNDER_WAY };

describe.each(dialects)('the predicted arrival push on $name', ({ name, enabled }) => {
  let f: TestApp;
  let token: string;
  let receiver: WebhookReceiver;
  const ids: Record<'lateness' | 'shift', string> = { lateness: '', shift: '' };

  beforeAll(async () => {
    if (!enabled) return;
    receiver = await WebhookReceiver.start();
    f = await createVoyageHistoryApp(name, { arrived: ARRIVED, now: NOW });
    ({ token } = await f.tokenFor('acct-eta', { subscribe: true }));
  }, 120_000);
  afterAll(async () => {
    await f?.destroy();
    await f?.t.destroy();
    await receiver?.close();
  });

  const subscribe = (body: Record<string, unknown>) => f.send('POST', '/v2/subscriptions', token, { callbackUrl: receiver.url, ...body });
  const fresh = () => new PredictedArrivals(f.t.database.db, { modelCheckMs: 0 });
  const deliveriesOf = async (subscriptionId: string) =>
    (
      await f.t.database.db.selectFrom('webhook_delivery').select('trigger_type').where('subscription_id', '=', subscriptionId).execute()
    ).map((r) => r.trigger_type);

  it.skipIf(!enabled)('refuses a PREDICTED_ARRIVAL request that cannot work, with a 400 naming the field', async () => {
    const cases: [Record<string, unknown>, string | undefined, RegExp][] = [
      [
        { ...LOOKUP, triggerTypes: ['PREDICTED_ARRIVAL'] },
        'predictedArrivalShiftHours',
        /needs predictedArrivalShiftHours or predictedLatenessHours/,
      ],
      [{ ...LOOKUP, predictedArrivalShiftHours: 12 }, 'predictedArrivalShiftHours', /needs PREDICTED_ARRIVAL in triggerTypes/],
      [{ ...LOOKUP, triggerTypes: ['EVENT_TRIGGER'], predictedLatenessHours: 12 }, 'predictedLatenessHours', /needs PREDICTED_ARRIVAL/],
      [{ triggerTypes: ['PREDICTED_ARRIVAL'], predictedLatenessHours: 12 }, 'triggerTypes', /needs a lookup form/],
      [{ ...LOOKUP, triggerTypes: ['PREDICTED_ARRIVAL'], predictedArrivalShiftHours: 0 }, 'predictedArrivalShiftHours', /at least 1/],
      [{ ...LOOKUP, triggerTypes: ['PREDICTED_ARRIVAL'], predictedLatenessHours: 721 }, 'predictedLatenessHours', /at most 720/],
      // Whole hours: GraphQL's Int refuses a fraction, as for every integer field of the body.
      [
        { ...LOOKUP, triggerTypes: ['PREDICTED_ARRIVAL'], predictedLatenessHours: 1.5 },
        undefined,
        /predictedLatenessHours.*non-integer value: 1\.5/,
      ],
    ];
    for (const [body, property, message] of cases) {
      const response = await subscribe(body);
      const text = await response.text();
      expect(response.status, text).toBe(400);
      const error = (JSON.parse(text) as { errors: { property?: string; errorCodeMessage: string }[] }).errors[0]!;
      expect(error.property, text).toBe(property);
      expect(error.errorCodeMessage, text).toMatch(message);
    }
  });

  it.skipIf(!enabled)('refuses it with a 409 until the upgrade is finished (release 0.4.0 could not deliver it)', async () => {
    setWritesCompact(f.t.database.db, false);
    try {
      const response = await subscribe({ ...LOOKUP, triggerTypes: ['PREDICTED_ARRIVAL'], predictedLatenessHours: 24 });
      const text = await response.text();
      expect(response.status, text).toBe(409);
      expect(text).toMatch(
        /PREDICTED_ARRIVAL can be subscribed to once the upgrade to this release is finished \(tracking upgrade finish\)/,
      );
      // Other subscriptions are made as ever.
      const plain = await subscribe({ ...LOOKUP });
      expect(plain.status).toBe(201);
      const made = (await plain.json()) as { subscriptionID: string; triggerTypes: string[] };
      expect(made.triggerTypes).not.toContain('PREDICTED_ARRIVAL');
      expect((await f.send('DELETE', `/v2/subscriptions/${made.subscriptionID}`, token)).status).toBe(204);
    } finally {
      setWritesCompact(f.t.database.db, true);
    }
  });

  it.skipIf(!enabled)('subscribes with the thresholds, shown back; the starting point is recorded and nothing is pushed', async () => {
    const lateness = await subscribe({ ...LOOKUP, triggerTypes: ['PREDICTED_ARRIVAL'], predictedLatenessHours: 24 });
    expect(lateness.status).toBe(201);
    const a = (await lateness.json()) as Record<string, unknown>;
    expect(a).toMatchObject({ triggerTypes: ['PREDICTED_ARRIVAL'], predictedLatenessHours: 24, coverage: 'SHIPMENT' });
    expect(a).not.toHaveProperty('predictedArrivalShiftHours');
    const shift = await subscribe({ ...LOOKUP, triggerTypes: ['PREDICTED_ARRIVAL', 'EVENT_TRIGGER'], predictedArrivalShiftHours: 12 });
    expect(shift.status).toBe(201);
    const b = (await shift.json()) as Record<string, unknown>;
    expect(b).toMatchObject({ predictedArrivalShiftHours: 12 });
    ids.lateness = a.subscriptionID as string;
    ids.shift = b.subscriptionID as string;
    const listed = (await (await f.get(`/v2/subscriptions/${ids.shift}`, token)).json()) as Record<string, unknown>;
    expect(listed).toMatchObject({ triggerTypes: ['PREDICTED_ARRIVAL', 'EVENT_TRIGGER'], predictedArrivalShiftHours: 12 });

    // No model yet: the prediction is the carrier's ETA, on its plan: neither late nor moved.
    const first = await evaluatePredictedArrivals(f.t.database, f.app.services.predictions, NOW);
    expect(first).toEqual({ evaluated: 2, pushed: 0, lost: 0 });
    expect(await f.t.database.db.selectFrom('predicted_arrival_mark').select('late').execute()).toHaveLength(2);
  });

  it.skipIf(!enabled)(
    'after training, the crossing is pushed once: not again, not by a restarted or second instance, not by two at once',
    async () => {
      await trainEta(f.t.database, { now: () => NOW, batchEvents: 50, pauseMs: 0 });
      const pass = await evaluatePredictedArrivals(f.t.database, f.app.services.predictions, NOW);
      // The model moves the prediction two days past the carrier's plan: late by 24 h (the carrier's ETA is not), and moved by more than 12 h.
      expect(pass).toEqual({ evaluated: 2, pushed: 2, lost: 0 });
      expect(await deliveriesOf(ids.lateness)).toEqual(['PREDICTED_ARRIVAL']);
      expect(await deliveriesOf(ids.shift)).toEqual(['PREDICTED_ARRIVAL']);

      expect(await evaluatePredictedArrivals(f.t.database, f.app.services.predictions, NOW)).toMatchObject({ pushed: 0 });
      expect(await evaluatePredictedArrivals(f.t.database, fresh(), new Date(NOW.getTime() + HOUR))).toMatchObject({ pushed: 0 });
      const both = await Promise.all([1, 2].map(() => evaluatePredictedArrivals(f.t.database, fresh(), new Date(NOW.getTime() + HOUR))));
      expect(both.map((r) => r.pushed)).toEqual([0, 0]);
      expect(await deliveriesOf(ids.lateness)).toHaveLength(1);
      expect(await deliveriesOf(ids.shift)).toHaveLength(1);
    },
  );

  it.skipIf(!enabled)(
    'a carrier ETA moved three days later is a second move for the shift subscriber only, pushed once by two instances at once',
    async () => {
      // The carrier's new estimate, received an hour after NOW.
      const at = new Date(NOW.getTime() + HOUR);
      const estimate = (
        voyageBundles(ARRIVED, NOW.getTime() - 2 * DAY, { arrived: false })[1]!.bundle as { events: Record<string, unknown>[] }
      ).events[1]!;
      const moved = {
        ...estimate,
        eventID: '00000000-0000-4000-b000-000000000001',
        eventDateTime: new Date(Date.parse(estimate.eventDateTime as string) + 72 * HOUR).toISOString(),
        eventCreatedDateTime: at.toISOString(),
      };
      await f.ingest({ carrierCode: 'MAEU', events: [moved] }, at);
      const later = new Date(at.getTime() + HOUR);
      const both = await Promise.all([1, 2].map(() => evaluatePredictedArrivals(f.t.database, fresh(), later)));
      expect(both.reduce((n, r) => n + r.pushed, 0)).toBe(1);
      expect(await deliveriesOf(ids.shift)).toEqual(['PREDICTED_ARRIVAL', 'PREDICTED_ARRIVAL']);
      // The lateness subscriber was told once; the prediction is still late (and now the carrier's ETA is too).
      expect(await deliveriesOf(ids.lateness)).toHaveLength(1);
      expect(await evaluatePredictedArrivals(f.t.database, f.app.services.predictions, later)).toMatchObject({ pushed: 0 });
    },
  );

  it.skipIf(!enabled)('the deliveries go out through the delivery queue, signed, with the trigger type in header and body', async () => {
    await drainDeliveries(f);
    const posts = receiver.received.filter((r) => r.headers['tracking-trigger-type'] === 'PREDICTED_ARRIVAL');
    expect(posts).toHaveLength(3);
    for (const post of posts) {
      const body = JSON.parse(post.body) as {
        transmissionHeader: { triggerType: string };
        shipmentTracking: { carrierBookingReference: string };
      };
      expect(body.transmissionHeader.triggerType).toBe('PREDICTED_ARRIVAL');
      expect(body.shipmentTracking.carrierBookingReference).toBe(UNDER_WAY);
    }
    const log = (await (await f.get(`/v2/subscriptions/${ids.shift}/deliveries`, token)).json()) as {
      triggerType: string;
      status: string;
    }[];
    expect(log.filter((d) => d.triggerType === 'PREDICTED_ARRIVAL').map((d) => d.status)).toEqual(['DELIVERED', 'DELIVERED']);
  });
});
