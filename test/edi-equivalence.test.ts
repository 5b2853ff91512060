import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestEdi } from '../src/carriers/edi-ingest.js';
import type { EdiFormat } from '../src/domain/edi-status-map.js';
import { ingestBundle } from '../src/ingest/ingest-bundle.js';
import { parseBundle } from '../src/ingest/parse-bundle.js';
import { readStoredSnapshot } from '../src/store/shipments/stored-snapshots.js';
import { createTestDatabase, dialects, type TestDatabase } from './support/databases.js';
import { CONTAINERS, VESSELS, at } from './support/event-builders.js';
import { FIELDS_EDI_LACKS } from './support/edi-docs.js';
import { iftstaInterchange, wallTime, x12Interchange, type EdiInterchangeSpec, type EdiStatusSpec } from './support/edi-files.js';

/**
 * The same voyage told three ways (docs/carriers.md "EDI"): as DCSA 2.2 JSON events, as X12 315
 * interchanges and as EDIFACT IFTSTA interchanges, each into its own database with the same shipment
 * and plan. Every shipment ends with the same snapshot and the same exceptions, whichever way it came.
 *
 * The ports are in several zones (docs/carriers.md "Times"): Shanghai (+08:00), Rotterdam (+01:00, +02:00 from
 * 29 March 2026), Los Angeles (-08:00, -07:00 from 8 March 2026) and Santos (-03:00). The EDI files carry every
 * status and schedule time as the local time of its location (B4-04/05 and IFTSTA DTM 203 without a zone, the R4
 * loop's DTM without DTM-04 or with LT), as the carriers' guides write them; the DCSA JSON carries the instants.
 * Event times are part of what is compared.
 *
 * eventIDs differ by construction (the DCSA carrier chose its own; EDI events get IDs derived from
 * their content) and are left out of the comparison. What EDI cannot say is left out of the DCSA JSON
 * too (FIELDS_EDI_LACKS, printed in docs/carriers.md).
 */

const CARRIER = 'MAEU';
const ACCOUNT = 'acct-edi';

/** The milestones of a container's voyage in order, as status codes. */
const SEQUENCE = ['EE', 'I', 'AE', 'VD', 'VA', 'UV', 'OA', 'RD'] as const;

interface Voyage {
  containers: string[];
  vessel: { vesselName: string; vesselIMONumber: string };
  voyage: string;
  pol: string;
  pod: string;
  /** How many milestones of SEQUENCE happened. */
  progress: number;
  /** Hours between milestones. */
  gaps: number[];
  /** Estimated arrival at the POD, hours after the planned one, one per interchange. */
  etaShifts: number[];
  /** Into how many interchanges the messages are split (each issued later). */
  interchanges: number;
  freeTimeHours: number | null;
}

/** The ports of the voyages and their IANA zones (what the EDI writers write local times in). */
const ZONES: Record<string, string> = {
  CNSHA: 'Asia/Shanghai',
  NLRTM: 'Europe/Amsterdam',
  USLAX: 'America/Los_Angeles',
  BRSSZ: 'America/Sao_Paulo',
};
const portKeys = Object.keys(ZONES);
const voyageArb: fc.Arbitrary<Voyage> = fc
  .record({
    containers: fc.subarray([...CONTAINERS], { minLength: 1, maxLength: 2 }),
    vessel: fc.constantFrom(...Object.values(VESSELS)),
    voyage: fc.stringMatching(/^[0-9]{3}[EWNS]$/),
    ports: fc.uniqueArray(fc.constantFrom(...portKeys), { minLength: 2, maxLength: 2 }),
    progress: fc.integer({ min: 1, max: SEQUENCE.length }),
    gaps: fc.array(fc.integer({ min: 1, max: 200 }), { minLength: SEQUENCE.length, maxLength: SEQUENCE.length }),
    // Each ETA once: an unchanged ETA sent again is one event in EDI (its eventID is derived from its content
    // without the creation time, docs/carriers.md "EDI"), where a DCSA carrier's repeat is an event of its own,
    // so the snapshot would show the first creation time on one side and the latest on the other.
    etaShifts: fc.uniqueArray(fc.integer({ min: -24, max: 120 }), { minLength: 0, maxLength: 3 }),
    interchanges: fc.integer({ min: 1, max: 3 }),
    freeTimeHours: fc.option(fc.integer({ min: 0, max: 2000 })),
  })
  .map(({ ports, ...v }) => ({ ...v, pol: ports[0]!, pod: ports[1]! }));

/** One status message of the voyage: what happened, to which container, when. */
interface Fact {
  status: (typeof SEQUENCE)[number];
  at: string;
  container?: string;
  /** An estimated arrival at the POD this message also carries. */
  eta?: string;
}

// Three days before Los Angeles' change of summer time, 24 before Rotterdam's: voyages cross them.
const START = '2026-03-05T00:00:00.000Z';

function plannedArrival(v: Voyage): string {
  return at(v.gaps.reduce((a, b) => a + b, 0) + 200, START);
}

function factsOf(v: Voyage): Fact[] {
  const facts: Fact[] = [];
  let hours = 0;
  for (let i = 0; i < v.progress; i++) {
    hours += v.gaps[i]!;
    const status = SEQUENCE[i]!;
    const when = at(hours, START);
    if (status === 'VD' || status === 'VA') facts.push({ status, at: when });
    else for (const [n, container] of v.containers.entries()) facts.push({ status, at: at(hours + n / 60, START), container });
  }
  return facts;
}

/** Splits the facts into interchanges; each carries at most one new ETA (on its first message). */
function interchangesOf(v: Voyage, run: number): { issued: string; facts: Fact[] }[] {
  const facts = factsOf(v);
  const size = Math.ceil(facts.length / v.interchanges);
  const chunks: { issued: string; facts: Fact[] }[] = [];
  for (let i = 0; i < v.interchanges; i++) {
    const part = facts.slice(i * size, (i + 1) * size);
    if (part.length === 0) continue;
    const shift = v.etaShifts[i];
    if (shift !== undefined) part[0] = { ...part[0]!, eta: at(shift, plannedArrival(v)) };
    // Issued after what it reports, one minute apart per run, so the three stores see the same order.
    chunks.push({ issued: at(1 + chunks.length + run / 1000, part.at(-1)!.at), facts: part });
  }
  // Issued times increase along the interchanges, as a carrier sends them.
  for (let i = 1; i < chunks.length; i++) {
    if (chunks[i]!.issued <= chunks[i - 1]!.issued) chunks[i]!.issued = at(1, chunks[i - 1]!.issued);
  }
  return chunks.map((c) => ({ ...c, issued: wholeMinute(c.issued) }));
}

function wholeMinute(iso: string): string {
  return new Date(Math.floor(Date.parse(iso) / 60_000) * 60_000).toISOString();
}

const refs = (run: number) => ({ booking: `EDIBKG${run}`, billOfLading: `MAEUEDI${run}` });

function locodeOf(v: Voyage, status: Fact['status']): string {
  return ['EE', 'I', 'AE', 'VD'].includes(status) ? v.pol : v.pod;
}

/** A fact as the EDI writers take it. */
function messageOf(v: Voyage, run: number, fact: Fact, n: number): EdiStatusSpec {
  const vessel = { name: v.vessel.vesselName, imo: v.vessel.vesselIMONumber };
  return {
    control: String(n + 1).padStart(4, '0'),
    status: fact.status,
    at: wholeMinute(fact.at),
    ...(fact.container ? { container: fact.container } : {}),
    locode: locodeOf(v, fact.status),
    zone: ZONES[locodeOf(v, fact.status)]!,
    vessel,
    voyage: v.voyage,
    ...refs(run),
    ...(fact.eta
      ? {
          ports: [
            {
              role: 'DISCHARGE' as const,
              locode: v.pod,
              zone: ZONES[v.pod]!,
              // Both ways the guides write a local time in the R4 loop: without DTM-04, and with LT.
              times: [{ classifier: 'EST' as const, at: fact.eta, code: n % 2 === 0 ? ('' as const) : ('LT' as const) }],
            },
          ],
        }
      : {}),
  };
}

/** The same fact as a DCSA 2.2 carrier would publish it, with its own eventIDs. */
function dcsaEventsOf(v: Voyage, run: number, fact: Fact, issued: string): Record<string, unknown>[] {
  const documentReferences = [
    { documentReferenceType: 'TRD', documentReferenceValue: refs(run).billOfLading },
    { documentReferenceType: 'BKG', documentReferenceValue: refs(run).booking },
  ];
  const call = (locode: string) => ({
    UNLocationCode: locode,
    modeOfTransport: 'VESSEL',
    vessel: { ...v.vessel },
    exportVoyageNumber: v.voyage,
    importVoyageNumber: v.voyage,
  });
  const base = {
    eventID: randomUUID(),
    eventClassifierCode: 'ACT',
    eventDateTime: wholeMinute(fact.at),
    eventCreatedDateTime: issued,
    documentReferences,
  };
  const locode = locodeOf(v, fact.status);
  const events: Record<string, unknown>[] = [];
  if (fact.status === 'VD' || fact.status === 'VA') {
    events.push({
      ...base,
      eventType: 'TRANSPORT',
      transportEventTypeCode: fact.status === 'VD' ? 'DEPA' : 'ARRI',
      transportCall: call(locode),
    });
  } else {
    const code = { EE: 'GTOT', I: 'GTIN', AE: 'LOAD', UV: 'DISC', OA: 'GTOT', RD: 'GTIN' }[fact.status];
    const vesselCall = fact.status === 'AE' || fact.status === 'UV';
    events.push({
      ...base,
      eventType: 'EQUIPMENT',
      equipmentEventTypeCode: code,
      equipmentReference: fact.container,
      emptyIndicatorCode: fact.status === 'EE' || fact.status === 'RD' ? 'EMPTY' : 'LADEN',
      ...(vesselCall ? { transportCall: call(locode) } : { eventLocation: { UNLocationCode: locode } }),
    });
  }
  if (fact.eta) {
    events.push({
      ...base,
      eventID: randomUUID(),
      eventClassifierCode: 'EST',
      eventDateTime: fact.eta,
      eventType: 'TRANSPORT',
      transportEventTypeCode: 'ARRI',
      transportCall: call(v.pod),
    });
  }
  return events;
}

/** The shipment and its plan, loaded the same way into every store. */
function baseline(v: Voyage, run: number): unknown {
  const freeTime = v.freeTimeHours === null ? {} : { free_time_exp_dt: at(v.freeTimeHours, START) };
  return {
    carrierCode: CARRIER,
    shipments: [
      {
        carrierBookingReference: refs(run).booking,
        billOfLadingNumber: refs(run).billOfLading,
        carrierCode: CARRIER,
        portOfLoading: { unLocationCode: v.pol },
        portOfDischarge: { unLocationCode: v.pod },
        references: {},
        accounts: [ACCOUNT],
        containers: v.containers.map((containerNumber) => ({ containerNumber, references: freeTime })),
        updatedDateTime: '2026-03-01T00:00:00.000Z',
      },
    ],
    events: [
      {
        eventID: randomUUID(),
        eventType: 'TRANSPORT',
        eventClassifierCode: 'PLN',
        eventDateTime: plannedArrival(v),
        eventCreatedDateTime: '2026-03-01T00:00:00.000Z',
        transportEventTypeCode: 'ARRI',
        documentReferences: [{ documentReferenceType: 'BKG', documentReferenceValue: refs(run).booking }],
        transportCall: {
          UNLocationCode: v.pod,
          modeOfTransport: 'VESSEL',
          vessel: { ...v.vessel },
          exportVoyageNumber: v.voyage,
          importVoyageNumber: v.voyage,
        },
      },
    ],
  };
}

/**
 * Voyages always run besides the generated ones: Los Angeles to Rotterdam with a gate-in before Los Angeles'
 * change of summer time and the loading after it, the arrival at Rotterdam before its change and the discharge
 * after; Shanghai to Santos.
 */
const CROSSING: Voyage[] = [
  {
    containers: [CONTAINERS[0]],
    vessel: VESSELS.ALPHA,
    voyage: '101E',
    pol: 'USLAX',
    pod: 'NLRTM',
    progress: SEQUENCE.length,
    // EE 6 Mar 06:00Z, I 8 Mar 06:00Z (22:00 PST on the 7th), AE 9 Mar 06:00Z (PDT), VD, VA 28 Mar 23:00Z (CET), UV 29 Mar 03:00Z (CEST), …
    gaps: [30, 48, 24, 2, 471, 4, 30, 24],
    etaShifts: [-3, 20],
    interchanges: 3,
    freeTimeHours: 600,
  },
  {
    containers: [CONTAINERS[1], CONTAINERS[2]],
    vessel: VESSELS.BRAVO,
    voyage: '202S',
    pol: 'CNSHA',
    pod: 'BRSSZ',
    progress: 6,
    gaps: [10, 20, 30, 5, 400, 12, 10, 10],
    etaShifts: [48],
    interchanges: 2,
    freeTimeHours: null,
  },
];

/** The UTC offsets (minutes) of a port at the times of a voyage's facts there. */
function offsetsAt(v: Voyage, locode: string): Set<number> {
  const offsets = new Set<number>();
  for (const fact of factsOf(v)) {
    if (locodeOf(v, fact.status) !== locode) continue;
    const wall = Date.parse(`${wallTime(wholeMinute(fact.at), ZONES[locode])}Z`);
    offsets.add((wall - Date.parse(wholeMinute(fact.at))) / 60_000);
  }
  return offsets;
}

/** The clock of every ingest: after the whole voyage, so every time-based rule has something to say. */
const NOW = new Date('2026-06-01T00:00:00.000Z');

async function ingestJson(t: TestDatabase, raw: unknown): Promise<void> {
  const parsed = parseBundle(raw);
  if (!parsed.ok) throw new Error(`invalid bundle: ${JSON.stringify(parsed.issues)}`);
  await ingestBundle(t.database, parsed.bundle, { now: () => NOW });
}

/** The stored snapshot and exceptions of the run's shipment, eventIDs left out. */
async function snapshotOf(t: TestDatabase, run: number): Promise<unknown> {
  const row = await t.database.db
    .selectFrom('shipment as sh')
    .select('sh.id')
    .where('sh.carrier_booking_reference', '=', refs(run).booking)
    .executeTakeFirstOrThrow();
  const stored = await readStoredSnapshot(t.database.db, row.id, new Set(['tracking', 'exceptions']));
  return withoutEventIds({ tracking: stored?.tracking, exceptions: stored?.exceptions });
}

function withoutEventIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutEventIds);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => !/eventID$/i.test(k))
        .map(([k, v]) => [k, withoutEventIds(v)]),
    );
  }
  return value;
}

describe('the DCSA JSON of the equivalence', () => {
  it('leaves out what EDI does not carry (FIELDS_EDI_LACKS)', () => {
    const named = ['transportCallID', 'carrierServiceCode', 'transportCallSequenceNumber', 'facilityCode', 'locationName'];
    for (const name of named)
      expect(
        FIELDS_EDI_LACKS.some((field) => field.includes(name)),
        name,
      ).toBe(true);
    fc.assert(
      fc.property(voyageArb, (v) => {
        const events = interchangesOf(v, 1).flatMap((c) => c.facts.flatMap((f) => dcsaEventsOf(v, 1, f, c.issued)));
        const text = JSON.stringify(events);
        for (const name of named) expect(text).not.toContain(`"${name}"`);
        expect(text).not.toContain('"PLN"');
        for (const e of events) {
          const call = e.transportCall as { exportVoyageNumber?: string; importVoyageNumber?: string } | undefined;
          if (call) expect(call.importVoyageNumber).toBe(call.exportVoyageNumber);
        }
      }),
    );
  });
});

describe('the voyages of the equivalence', () => {
  it('cross the changes of summer time at Los Angeles and Rotterdam', () => {
    expect([...offsetsAt(CROSSING[0]!, 'USLAX')].sort((a, b) => a - b)).toEqual([-480, -420]);
    expect([...offsetsAt(CROSSING[0]!, 'NLRTM')].sort((a, b) => a - b)).toEqual([60, 120]);
    expect([...offsetsAt(CROSSING[1]!, 'CNSHA')]).toEqual([480]);
    expect([...offsetsAt(CROSSING[1]!, 'BRSSZ')]).toEqual([-180]);
  });
});

describe.each(dialects)('EDI equivalence on $name', ({ name, enabled }) => {
  const stores: Partial<Record<'dcsa' | EdiFormat, TestDatabase>> = {};
  beforeAll(async () => {
    if (!enabled) return;
    for (const key of ['dcsa', 'x12-315', 'iftsta'] as const) stores[key] = await createTestDatabase(name);
  });
  afterAll(async () => {
    for (const t of Object.values(stores)) await t?.destroy();
  });

  it.skipIf(!enabled)(
    'the same voyage as DCSA JSON, as X12 315 and as IFTSTA gives the same snapshot and exceptions',
    { timeout: 600_000 },
    async () => {
      let run = 0;
      let withExceptions = 0;
      await fc.assert(
        fc.asyncProperty(voyageArb, async (v) => {
          run += 1;
          for (const t of Object.values(stores)) await ingestJson(t!, baseline(v, run));
          for (const [i, chunk] of interchangesOf(v, run).entries()) {
            await ingestJson(stores.dcsa!, {
              carrierCode: CARRIER,
              events: chunk.facts.flatMap((f) => dcsaEventsOf(v, run, f, chunk.issued)),
            });
            const spec: EdiInterchangeSpec = {
              sender: 'MAEUEDI',
              control: `${run}${String(i).padStart(2, '0')}`,
              issued: chunk.issued,
              version: i % 2 === 0 ? '4010' : '5010',
              messages: chunk.facts.map((f, n) => messageOf(v, run, f, n)),
            };
            for (const [format, text] of [
              ['x12-315', x12Interchange(spec)],
              ['iftsta', iftstaInterchange(spec)],
            ] as const) {
              const summary = await ingestEdi(
                stores[format]!.database,
                { carrierCode: CARRIER, format, text },
                { now: () => NOW, rejectedEventsMax: 100 },
              );
              expect(summary.rejected, format).toEqual([]);
            }
          }
          const dcsa = (await snapshotOf(stores.dcsa!, run)) as { exceptions: unknown[] };
          if (dcsa.exceptions.length > 0) withExceptions += 1;
          expect(await snapshotOf(stores['x12-315']!, run)).toEqual(dcsa);
          expect(await snapshotOf(stores.iftsta!, run)).toEqual(dcsa);
        }),
        { numRuns: 15, examples: CROSSING.map((v) => [v]) },
      );
      // The comparison held for voyages that raised exceptions, not only for quiet ones.
      expect(withExceptions).toBeGreaterThan(0);
    },
  );
});
