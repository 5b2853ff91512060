import { createHash } from 'node:crypto';
import fc from 'fast-check';
import type { Kysely } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TrackingEvent } from '../src/domain/types.js';
import { parseBundle } from '../src/ingest/parse-bundle.js';
import { loadShipmentStates } from '../src/store/shipments/chunked-state.js';
import { backfillCompactEvents } from '../src/store/events/compact-events.js';
import { EVENT_DICTIONARY_V1 } from '../src/store/events/event-payload-dictionary.js';
import { decodeEvent, decodeEventJson, encodeEventJson, encodeEventPayload } from '../src/store/events/event-payload.js';
import { migrateToLatest } from '../src/store/housekeeping/migrate.js';
import { finishUpgrade } from '../src/store/housekeeping/upgrade-finish.js';
import { loadParts } from '../src/store/shipments/shipment-reader.js';
import { rebuildSnapshots } from '../src/store/shipments/stored-snapshots.js';
import { eventsOfShipment } from '../src/store/carriers/tracking-requests.js';
import { createTestApp, type TestApp } from './support/app-fixture.js';
import { createTestDatabase, dialects, type TestDatabase } from './support/databases.js';
import {
  CARRIER,
  CONTAINER_A,
  CONTAINER_B,
  eventId,
  rawEquipmentEvent,
  rawShipment,
  rawShipmentEvent,
  rawTransportEvent,
} from './support/ingest-fixtures.js';

/**
 * Compact event storage (docs/architecture.md, Event storage): an event is stored as its JSON deflated against a
 * frozen dictionary behind a format byte, every reader decodes it to exactly what ingest stored, rows of the plain
 * form (before migration 021) keep reading, and the backfill converts them while reads go on.
 */

type Json = Record<string, unknown>;

// Text a carrier may send: accents, CJK, Greek, emoji (astral plane), quotes and backslashes JSON escapes.
const TEXT = fc.oneof(
  fc.constantFrom('Zürich Hafen', '東京港', 'Πειραιάς', 'Port 🚢 ⚓', 'say "hi" \\ there', 'Ñandú/Œuvre', 'a\u00a0b'),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).filter((s) => s.trim() === s && s.length > 0),
);
/** A time in the DCSA spelling (an offset) or the spec's (UTC, Z). */
const TIME = fc
  .record({
    day: fc.integer({ min: 1, max: 28 }),
    hour: fc.integer({ min: 0, max: 23 }),
    offset: fc.constantFrom('Z', '+01:00', '-05:30', '+09:00'),
  })
  .map(
    ({ day, hour, offset }) =>
      `2026-04-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:15:00${offset === 'Z' ? '.000Z' : offset}`,
  );
/** An optional field: present, null or absent (undefined drops the key). */
const optional = <T>(value: fc.Arbitrary<T>) => fc.option(fc.oneof(value, fc.constant(null)), { nil: undefined });

function withoutUndefined(o: Json): Json {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

const CALL = fc
  .record({
    port: fc.constantFrom('NLRTM', 'SGSIN', 'CNSHA'),
    spelling: fc.constantFrom('UNLocationCode', 'unLocationCode'),
    name: optional(TEXT),
    facility: optional(fc.constantFrom('ECT', 'PSA')),
    vessel: fc.boolean(),
    voyage: optional(fc.constantFrom('401E', '77W')),
    service: optional(fc.constantFrom('AE7', 'FAL1')),
  })
  .map((c) =>
    withoutUndefined({
      transportCallID: `TC-${c.port}`,
      carrierServiceCode: c.service,
      exportVoyageNumber: c.voyage,
      [c.spelling]: c.port,
      facilityCode: c.facility,
      facilityCodeListProvider: c.facility ? 'SMDG' : undefined,
      facilityTypeCode: 'POTE',
      modeOfTransport: 'VESSEL',
      location: c.name === undefined ? undefined : { locationName: c.name, [c.spelling]: c.port },
      vessel: c.vessel ? { vesselIMONumber: '9321483', vesselName: 'MAERSK ESSEN' } : undefined,
    }),
  );

const COMMON = fc.record({
  classifier: fc.constantFrom('ACT', 'EST', 'PLN'),
  created: TIME,
  at: TIME,
  refs: fc.boolean(),
});

/** A raw event of any of the three types, in either spelling, optional fields present, null or absent. */
const RAW_EVENT: fc.Arbitrary<(n: number) => Json> = fc.oneof(
  fc.record({ c: COMMON, call: CALL, type: fc.constantFrom('ARRI', 'DEPA'), delay: optional(fc.constantFrom('WEA', 'STR')) }).map(
    ({ c, call, type, delay }) =>
      (n: number) =>
        rawTransportEvent(
          n,
          withoutUndefined({
            eventClassifierCode: c.classifier,
            eventCreatedDateTime: c.created,
            eventDateTime: c.at,
            transportEventTypeCode: type,
            delayReasonCode: delay,
            transportCall: call,
          }),
        ),
  ),
  fc
    .record({
      c: COMMON,
      call: fc.option(CALL, { nil: undefined }),
      container: fc.constantFrom(CONTAINER_A, CONTAINER_B),
      type: fc.constantFrom('LOAD', 'DISC', 'GTIN', 'GTOT'),
      empty: fc.constantFrom('LADEN', 'EMPTY'),
      place: optional(TEXT),
      seals: fc.boolean(),
    })
    .map(
      ({ c, call, container, type, empty, place, seals }) =>
        (n: number) =>
          withoutUndefined({
            ...rawEquipmentEvent(n, {
              eventClassifierCode: c.classifier,
              eventCreatedDateTime: c.created,
              eventDateTime: c.at,
              equipmentReference: container,
              equipmentEventTypeCode: type,
              emptyIndicatorCode: empty,
            }),
            transportCall: call,
            eventLocation: place === undefined ? undefined : place === null ? null : { locationName: place, UNLocationCode: 'NLRTM' },
            seals: seals ? [{ sealNumber: 'S1', sealType: 'BLT' }] : undefined,
            documentReferences: c.refs ? [{ documentReferenceType: 'BKG', documentReferenceValue: 'BKG100' }] : undefined,
          }),
    ),
  fc.record({ c: COMMON, type: fc.constantFrom('CONF', 'ISSU', 'RECE'), doc: fc.constantFrom('BKG', 'TRD') }).map(
    ({ c, type, doc }) =>
      (n: number) =>
        rawShipmentEvent(n, {
          eventClassifierCode: c.classifier,
          eventCreatedDateTime: c.created,
          eventDateTime: c.at,
          shipmentEventTypeCode: type,
          documentTypeCode: doc,
          documentID: doc === 'BKG' ? 'BKG100' : 'MAEUBL100',
        }),
  ),
);

/** The events as ingest normalizes them; raw events the validator refuses are left out. */
function normalized(raws: Json[]): TrackingEvent[] {
  const out: TrackingEvent[] = [];
  for (const raw of raws) {
    const parsed = parseBundle({ carrierCode: CARRIER, events: [raw] });
    if (parsed.ok) out.push(...parsed.bundle.events);
  }
  return out;
}

describe('the stored form of an event', () => {
  it('decodes to the very JSON text ingest wrote, for any generated event (property)', () => {
    let valid = 0;
    fc.assert(
      fc.property(RAW_EVENT, fc.integer({ min: 1, max: 1e9 }), (make, n) => {
        const events = normalized([make(n)]);
        for (const event of events) {
          valid++;
          const stored = encodeEventPayload(event);
          expect(decodeEventJson({ payload: stored, payload_json: '' })).toBe(JSON.stringify(event));
          expect(decodeEvent({ payload: stored, payload_json: '' })).toEqual(event);
        }
      }),
      { numRuns: 300 },
    );
    // The generator makes events the validator takes, or the property says nothing.
    expect(valid).toBeGreaterThan(250);
  });

  it('keeps any JSON text byte for byte, and is much smaller than it', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const json = JSON.stringify(value);
        expect(decodeEventJson({ payload: encodeEventJson(json), payload_json: '' })).toBe(json);
      }),
    );
    const [event] = normalized([rawTransportEvent(7)]);
    const json = JSON.stringify(event);
    expect(encodeEventJson(json).length).toBeLessThan(json.length / 2.5);
  });

  it('reads rows of the plain form as they are, and refuses a format it does not know', () => {
    const [event] = normalized([rawEquipmentEvent(3)]);
    expect(decodeEvent({ payload: null, payload_json: JSON.stringify(event) })).toEqual(event);
    const unknown = Buffer.from(encodeEventPayload(event!));
    unknown[0] = 0x02;
    expect(() => decodeEvent({ payload: unknown, payload_json: '' })).toThrow(/unknown format \(marker byte 2\)/);
  });

  it('has a frozen dictionary: stored rows need exactly these bytes (a new one gets a new marker byte)', () => {
    expect(createHash('sha256').update(EVENT_DICTIONARY_V1).digest('hex')).toBe(
      'ebd38f70bf5dcf56cd612541fdda4354ee68a09c70cc0c46683aec647de14acf',
    );
  });
});

describe.each(dialects)('compact events on $name', ({ name, enabled }) => {
  let f: TestApp;
  afterEach(async () => f?.destroy());

  /** Generated events of the shipment BKG100 (deterministic: fixed seed), with unique eventIDs. */
  function generatedEvents(count: number): Json[] {
    return fc.sample(RAW_EVENT, { numRuns: count, seed: 37 }).map((make, i) => make(1000 + i));
  }

  /** Everything that serves stored events, as text: GET /v2/events, the parts, tracking progress, the rebuilt snapshot, the lookup. */
  async function served(token: string, shipmentId: number): Promise<Record<string, string>> {
    const db = f.t.database.db;
    const page = await f.get('/v2/events?limit=100', token);
    expect(page.status).toBe(200);
    await rebuildSnapshots(db, f.t.database.dialect, [shipmentId]);
    const snapshot = await db.selectFrom('shipment_snapshot').select(['tracking_json', 'exceptions_json']).executeTakeFirstOrThrow();
    const lookup = await f.get('/v2/shipments?carrierCode=MAEU&carrierBookingReference=BKG100', token);
    const { transmissionHeader: _header, ...body } = (await lookup.json()) as Json;
    const states = await loadShipmentStates(db, f.t.database.dialect, [shipmentId]);
    return {
      events: await page.text(),
      parts: JSON.stringify((await loadParts(db, shipmentId, new Set(['events']))).events),
      progress: JSON.stringify(await eventsOfShipment(db, shipmentId)),
      states: JSON.stringify(states.get(shipmentId)?.events),
      snapshot: JSON.stringify(snapshot),
      lookup: JSON.stringify(body),
    };
  }

  /** Every event row back to the plain form of before migration 021. */
  async function makePlain(): Promise<void> {
    const db = f.t.database.db;
    for (const row of await db.selectFrom('event').select(['seq', 'payload', 'payload_json']).execute()) {
      await db
        .updateTable('event')
        .set({ payload_json: decodeEventJson(row), payload: null })
        .where('seq', '=', row.seq)
        .execute();
    }
  }

  it.skipIf(!enabled)(
    'stores generated events compact, serves the same bytes as the plain form, and the backfill converts old rows while reads go on',
    async () => {
      f = await createTestApp(name);
      const { token } = await f.tokenFor('acme');
      const raws = generatedEvents(40);
      const expected = normalized(raws);
      expect(expected.length).toBeGreaterThan(30);
      await f.ingest({ carrierCode: CARRIER, shipments: [rawShipment()], events: raws });
      const db = f.t.database.db;
      const { id } = await db.selectFrom('shipment').select('id').executeTakeFirstOrThrow();

      // Stored compact, decoding to exactly what was ingested.
      const rows = await db.selectFrom('event').select(['event_id', 'payload', 'payload_json']).execute();
      expect(rows).toHaveLength(expected.length);
      for (const row of rows) {
        expect(row.payload_json).toBe('');
        expect(row.payload).not.toBeNull();
        const event = expected.find((e) => e.eventID === row.event_id);
        expect(decodeEventJson(row)).toBe(JSON.stringify(event));
      }
      const compact = await served(token, id);
      expect((JSON.parse(compact.events ?? '[]') as unknown[]).length).toBeGreaterThan(20);

      // The plain form serves the same bytes everywhere.
      await makePlain();
      expect(await served(token, id)).toEqual(compact);

      // The backfill converts them in small batches; reads during it see every event, the same.
      const reads = async () => {
        const seen: string[] = [];
        for (let i = 0; i < 6; i++) seen.push(await (await f.get('/v2/events?limit=100', token)).text());
        return seen;
      };
      const [converted, during] = await Promise.all([backfillCompactEvents(db, { batch: 3 }), reads()]);
      expect(converted).toBe(expected.length);
      for (const text of during) expect(text).toBe(compact.events);
      const after = await db.selectFrom('event').select(['payload', 'payload_json']).execute();
      expect(after.every((r) => r.payload !== null && r.payload_json === '')).toBe(true);
      expect(await served(token, id)).toEqual(compact);
      expect(await backfillCompactEvents(db)).toBe(0);
    },
  );
});

describe.each(dialects)('events stored before migration 021 on $name', ({ name, enabled }) => {
  let t: TestDatabase;
  beforeAll(async () => {
    if (enabled) t = await createTestDatabase(name, { migrateTo: '019-edi-interchanges' });
  });
  afterAll(async () => t?.destroy());

  it.skipIf(!enabled)('stay plain through the migration that adds the compact form, and are converted by finish', async () => {
    const db = t.database.db as Kysely<any>;
    const [event] = normalized([
      rawTransportEvent(5, { transportCall: { ...(rawTransportEvent(5).transportCall as Json), location: { locationName: '東京港 🚢' } } }),
    ]);
    const plain = JSON.stringify(event);
    await db
      .insertInto('event')
      .values({
        event_id: eventId(5),
        carrier_code: CARRIER,
        event_type: event!.eventType,
        event_date_time: event!.eventDateTime,
        event_created_date_time: event!.eventCreatedDateTime,
        payload_json: plain,
        ingested_at: '2026-03-01T00:00:00.000Z',
      })
      .execute();

    expect(await migrateToLatest(t.database)).toContain('021-compact-events');
    // An expand step: the row is as the previous release wrote it, and reads so.
    const before = await t.database.db.selectFrom('event').select(['payload', 'payload_json']).executeTakeFirstOrThrow();
    expect(before).toEqual({ payload: null, payload_json: plain });
    expect(await finishUpgrade(t.database, { previousReleaseStopped: true, propagationMs: 0 })).toMatchObject({ status: 'finished' });
    const row = await t.database.db.selectFrom('event').select(['payload', 'payload_json']).executeTakeFirstOrThrow();
    expect(row.payload_json).toBe('');
    expect(row.payload?.[0]).toBe(0x01);
    expect(decodeEventJson(row)).toBe(plain);
  });
});
