import { afterEach, describe, expect, it } from 'vitest';
import { notificationKey, signNotification } from '../src/carriers/notification-signature.js';
import { createDatabaseMetrics } from '../src/observability/metrics.js';
import { BASE, createTestApp, testConfig, type TestApp } from './support/app-fixture.js';
import { runCaptured, type CliRun } from './support/cli-run.js';
import { dialects } from './support/databases.js';
import { FakeDcsaPublisher } from './support/fake-dcsa-publisher.js';
import { CARRIER, eventId, rawShipment, rawTransportEvent } from './support/ingest-fixtures.js';

/**
 * Data that goes nowhere is visible (docs/carriers.md "Carrier onboarding"): events
 * stored for shipments nobody loaded yet (the tt_unlinked_events gauge,
 * `tracking carrier unlinked`), and events a poll or a notification refused,
 * kept with their error and replayed by `tracking carrier rejected replay`.
 */
describe.each(dialects)('unlinked and rejected events on $name', ({ name, enabled }) => {
  let f: TestApp | undefined;
  let clock = Date.parse('2026-05-01T08:00:00Z');
  const now = () => new Date(clock);
  afterEach(async () => {
    await f?.destroy();
    f = undefined;
    extraEnv = {};
  });
  let extraEnv: Record<string, string> = {};
  const run = (...args: string[]): Promise<CliRun> =>
    runCaptured(args, {
      env: { DATABASE_URL: f!.t.url, TT_BASE_URL: BASE, TT_LOG_LEVEL: 'silent', ...extraEnv },
      database: f!.t.database,
      now,
    });

  /** The gauge's samples as `carrier=count`, read now (no cache between two reads of the test: its clock moves). */
  async function gauge(metric: string): Promise<string[]> {
    clock += 60_000;
    const text = await createDatabaseMetrics(f!.t.database, { now: () => clock }).metrics();
    return [...text.matchAll(new RegExp(`^${metric}\\{carrier="([A-Z]+)"\\} (\\d+)$`, 'gm'))].map((m) => `${m[1]}=${m[2]}`);
  }

  async function carrierWithSecret(code = CARRIER): Promise<(events: unknown[]) => Promise<Response>> {
    const { secret } = await f!.app.services.carriers.addCarrier({ carrierCode: code });
    const key = notificationKey(secret);
    if (!key.ok) throw new Error(key.message);
    return (events) => {
      const body = JSON.stringify(events);
      return f!.app.fetch(`${BASE}/v2/carrier-notifications/${code}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Notification-Signature': signNotification(body, key.key) },
        body,
      });
    };
  }

  it.skipIf(!enabled)(
    'events for a shipment not loaded yet: counted, listed oldest first with what they link by, gone once it arrives',
    async () => {
      f = await createTestApp(name, { now });
      const notify = await carrierWithSecret();
      expect(await gauge('tt_unlinked_events')).toEqual([]);
      expect((await notify([rawTransportEvent(1)])).status).toBe(204);
      clock += 1000;
      const other = { documentReferences: [{ documentReferenceType: 'BKG', documentReferenceValue: 'BKG200' }] };
      expect((await notify([rawTransportEvent(2, other)])).status).toBe(204);
      expect(await gauge('tt_unlinked_events')).toEqual(['MAEU=2']);

      const listed = await run('carrier', 'unlinked', '--json');
      expect(listed.code).toBe(0);
      expect(JSON.parse(listed.stdout)).toEqual([
        expect.objectContaining({ carrierCode: CARRIER, eventID: eventId(1), references: [{ kind: 'BKG', value: 'BKG100' }] }),
        expect.objectContaining({ carrierCode: CARRIER, eventID: eventId(2), references: [{ kind: 'BKG', value: 'BKG200' }] }),
      ]);
      expect((await run('carrier', 'unlinked')).stdout).toMatch(/^CARRIER\s+EVENT_ID\s+TYPE\s+EVENT_TIME\s+STORED\s+LINKS_BY\n/);
      expect(JSON.parse((await run('carrier', 'unlinked', '--carrier', 'CMDU', '--json')).stdout)).toEqual([]);

      // The shipment is loaded: its event links, the other still waits.
      await f.ingest({ carrierCode: CARRIER, shipments: [rawShipment()] }, now());
      expect(await gauge('tt_unlinked_events')).toEqual(['MAEU=1']);
      expect((JSON.parse((await run('carrier', 'unlinked', '--json')).stdout) as { eventID: string }[]).map((e) => e.eventID)).toEqual([
        eventId(2),
      ]);
      // A changed bill of lading drops the links it made: an event linked only by it waits again.
      const byBl = { documentReferences: [{ documentReferenceType: 'TRD', documentReferenceValue: 'MAEUBL100' }] };
      expect((await notify([rawTransportEvent(3, byBl)])).status).toBe(204);
      expect(await gauge('tt_unlinked_events')).toEqual(['MAEU=1']);
      await f.ingest({ carrierCode: CARRIER, shipments: [rawShipment({ billOfLadingNumber: 'MAEUBL999' })] }, now());
      expect((JSON.parse((await run('carrier', 'unlinked', '--json')).stdout) as { eventID: string }[]).map((e) => e.eventID)).toEqual([
        eventId(2),
        eventId(3),
      ]);
    },
  );

  it.skipIf(!enabled)(
    'a refused notification keeps its events with their errors; a replay ingests those valid now, keeps the rest',
    async () => {
      f = await createTestApp(name, { now });
      const notify = await carrierWithSecret();
      await f.ingest({ carrierCode: CARRIER, shipments: [rawShipment()] }, now());
      const bad = rawTransportEvent(3, { transportCall: { UNLocationCode: 'XX', modeOfTransport: 'VESSEL' } });
      expect((await notify([rawTransportEvent(1), bad, rawTransportEvent(2)])).status).toBe(400);
      expect(await gauge('tt_rejected_events')).toEqual(['MAEU=3']);

      const kept = JSON.parse((await run('carrier', 'rejected', 'list', '--json')).stdout) as Record<string, unknown>[];
      expect(kept.map((k) => [k.eventID, k.source])).toEqual([
        [eventId(1), 'notification'],
        [eventId(3), 'notification'],
        [eventId(2), 'notification'],
      ]);
      expect(kept[0]?.error).toBe('valid, refused with its notification (invalid: [1])');
      expect(kept[1]?.error).toMatch(/^transportCall\.UNLocationCode: /);
      expect(kept[1]?.event).toEqual(bad);
      expect((await run('carrier', 'rejected', 'list')).stdout).toMatch(/^ID\s+CARRIER\s+SOURCE\s+EVENT_ID/);

      // The carrier sends the same notification again: counted, not doubled.
      expect((await notify([rawTransportEvent(1), bad, rawTransportEvent(2)])).status).toBe(400);
      expect(
        (JSON.parse((await run('carrier', 'rejected', 'list', '--json')).stdout) as { timesRejected: number }[]).map(
          (k) => k.timesRejected,
        ),
      ).toEqual([2, 2, 2]);

      const replay = await run('carrier', 'rejected', 'replay');
      expect(replay.code).toBe(1);
      expect(JSON.parse(replay.stdout)).toEqual({ replayed: 3, eventsStored: 2, eventsAlreadyStored: 0, stillRejected: 1 });
      const events = await f.t.database.db.selectFrom('event').select('event_id').orderBy('event_id').execute();
      expect(events.map((e) => e.event_id)).toEqual([eventId(1), eventId(2)]);
      const left = JSON.parse((await run('carrier', 'rejected', 'list', '--json')).stdout) as {
        id: number;
        eventID: string;
        timesRejected: number;
      }[];
      expect(left).toEqual([expect.objectContaining({ eventID: eventId(3), timesRejected: 3 })]);

      // The cause is fixed (here: the kept event corrected in place, as a service that learned the code would accept it).
      await f.t.database.db
        .updateTable('rejected_event')
        .set({ event_json: JSON.stringify(rawTransportEvent(3)) })
        .execute();
      const fixed = await run('carrier', 'rejected', 'replay', '--id', String(left[0]?.id));
      expect(fixed.code).toBe(0);
      expect(JSON.parse(fixed.stdout)).toEqual({ replayed: 1, eventsStored: 1, eventsAlreadyStored: 0, stillRejected: 0 });
      expect(JSON.parse((await run('carrier', 'rejected', 'list', '--json')).stdout)).toEqual([]);
      expect(await gauge('tt_rejected_events')).toEqual([]);
    },
  );

  it.skipIf(!enabled)('the poller keeps the events it leaves out, within TT_REJECTED_EVENTS_MAX, the oldest dropped first', async () => {
    extraEnv = { TT_REJECTED_EVENTS_MAX: '3' };
    f = await createTestApp(name, { now, config: testConfig(extraEnv) });
    const publisher = await FakeDcsaPublisher.start();
    try {
      const bad = (n: number) =>
        rawTransportEvent(n, { eventDateTime: '2024-03-30T06:00:00', eventCreatedDateTime: `2024-03-0${n}T08:00:00Z` });
      publisher.events = [rawTransportEvent(1), bad(2), bad(3), bad(4), bad(5)];
      await f.app.services.carriers.addCarrier({ carrierCode: CARRIER, eventsUrl: publisher.eventsUrl, pollSince: '2024-01-01T00:00:00Z' });
      clock += 1000;
      const polled = await run('poll', '--once');
      expect(JSON.parse(polled.stdout.split('\n')[0]!)).toMatchObject({ eventsStored: 1, eventsRejected: 4 });
      const kept = JSON.parse((await run('carrier', 'rejected', 'list', '--json')).stdout) as Record<string, unknown>[];
      expect(kept.map((k) => k.eventID)).toEqual([eventId(3), eventId(4), eventId(5)]);
      expect(kept[0]).toMatchObject({ source: 'poll', error: expect.stringMatching(/^eventDateTime: timestamp .* has no UTC offset/) });
      expect(JSON.parse((await run('carrier', 'rejected', 'replay', '--carrier', CARRIER)).stdout)).toMatchObject({ stillRejected: 3 });
    } finally {
      await publisher.close();
    }
  });

  it.skipIf(!enabled)('the commands have --help, and a bad --id is a usage error', async () => {
    f = await createTestApp(name, { now });
    for (const command of [
      ['carrier', 'unlinked'],
      ['carrier', 'rejected', 'list'],
      ['carrier', 'rejected', 'replay'],
    ]) {
      expect((await run(...command, '--help')).code).toBe(0);
    }
    expect((await run('carrier', 'rejected', 'replay', '--id', 'x')).code).toBe(2);
    expect((await run('carrier', 'rejected')).code).toBe(2);
  });
});
