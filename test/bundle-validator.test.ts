import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { MAX_LISTED_ISSUES } from '../src/ingest/bundle-issues.js';
import { BundleValidator, parseBundle } from '../src/ingest/parse-bundle.js';
import { BundleJsonError, readBundle } from '../src/ingest/read-bundle.js';
import { maeuBundle } from './support/fixture-bundle.js';

type Raw = { carrierCode?: unknown; shipments: any[]; events: any[] };

/** Feeds a bundle to the validator in the given member order, as a stream in that order would. */
function validateInOrder(raw: Raw, order: ('carrierCode' | 'shipments' | 'events')[]) {
  const validator = new BundleValidator();
  for (const key of order) {
    if (key === 'carrierCode') {
      if ('carrierCode' in raw) validator.member('carrierCode', raw.carrierCode);
      continue;
    }
    validator.member(key, []);
    for (const entry of raw[key]) {
      if (key === 'shipments') validator.addShipment(entry);
      else validator.addEvent(entry);
    }
  }
  return validator.finish();
}

const ORDERS = [
  ['carrierCode', 'shipments', 'events'],
  ['events', 'shipments', 'carrierCode'],
  ['shipments', 'events', 'carrierCode'],
] as const;

function badEvent(n: number) {
  const event = structuredClone(maeuBundle().events[1]!) as any;
  event.eventID = `00000000-0000-4000-8000-${(0xbad000 + n).toString(16).padStart(12, '0')}`;
  event.eventDateTime = 'yesterday';
  return event;
}

function badShipment(n: number) {
  const shipment = structuredClone(maeuBundle().shipments[0]!) as any;
  shipment.carrierBookingReference = `BAD-${n}`;
  shipment.accounts = 'everyone';
  return shipment;
}

describe('BundleValidator: the whole-bundle rules, entry by entry', () => {
  const cases: [string, Raw][] = [
    ['a valid bundle', maeuBundle()],
    [
      'events without carrierCode',
      (() => {
        const b: Raw = maeuBundle();
        delete b.carrierCode;
        return b;
      })(),
    ],
    [
      'repeats: an exact repeat is dropped, a different one is an issue',
      (() => {
        const b: Raw = maeuBundle();
        const again = structuredClone(b.events[2]);
        const changed = { ...structuredClone(b.events[3]), eventDateTime: '2026-12-24T00:00:00Z' };
        b.events.push(again, changed);
        b.shipments.push({ ...structuredClone(b.shipments[1]), carrierName: 'Someone else' });
        return b;
      })(),
    ],
    ['issues of both lists under the cap', { ...maeuBundle(), shipments: [badShipment(1)], events: [badEvent(1), ...maeuBundle().events] }],
    [
      'more issues than the cap',
      { ...maeuBundle(), shipments: [badShipment(1), badShipment(2)], events: Array.from({ length: 70 }, (_, i) => badEvent(i)) },
    ],
    [
      'exactly the cap, then valid entries',
      {
        carrierCode: 'MAEU',
        shipments: [],
        events: [...Array.from({ length: MAX_LISTED_ISSUES }, (_, i) => badEvent(i)), ...maeuBundle().events],
      },
    ],
    [
      'the cap reached in shipments, with events after',
      { carrierCode: 'MAEU', shipments: Array.from({ length: MAX_LISTED_ISSUES }, (_, i) => badShipment(i)), events: maeuBundle().events },
    ],
  ];

  it.each(cases)("gives parseBundle's result in any member order: %s", (_name, raw) => {
    const expected = parseBundle(raw);
    for (const order of ORDERS) expect(validateInOrder(raw, [...order]), order.join(',')).toEqual(expected);
  });

  it('lists at most the cap, then says validation stopped', () => {
    const raw = cases[4]![1];
    const result = validateInOrder(raw, ['events', 'shipments', 'carrierCode']);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues).toHaveLength(MAX_LISTED_ISSUES + 1);
    expect(result.issues.at(-1)?.message).toMatch(/validation stopped after 50 issues/);
    // Shipments are listed first, as in the whole-bundle order.
    expect(result.issues[0]?.path).toBe('shipments[0].accounts');
  });
});

describe('readBundle: streamed JSON', () => {
  const chunked = (text: string, size: number) =>
    Readable.from(Array.from({ length: Math.ceil(text.length / size) }, (_, i) => Buffer.from(text.slice(i * size, (i + 1) * size))));

  it('reads a bundle in any chunking, with a byte order mark and multi-byte characters split across chunks', async () => {
    const raw = maeuBundle();
    (raw.shipments[0] as any).references.customer_name = 'Ünïcødé ❄ Imports';
    const text = `\uFEFF${JSON.stringify(raw, null, 2)}`;
    for (const size of [1, 7, 64, 100_000]) expect(await readBundle(chunked(text, size))).toEqual(parseBundle(raw));
  });

  it('reports broken JSON with line and column', async () => {
    const text = '{\n  "carrierCode": "MAEU",\n  "events": [\n    {"eventID" "x"}\n  ]\n}';
    const error = await readBundle(chunked(text, 5)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BundleJsonError);
    expect(error).toMatchObject({ line: 4, column: 16, message: "expected ':'" });
    await expect(readBundle(chunked('{"carrierCode": ', 4))).rejects.toMatchObject({ line: 1, column: 17, message: /end of input/ });
    await expect(readBundle(chunked('{"a": 1} trailing', 4))).rejects.toBeInstanceOf(BundleJsonError);
  });

  it('rejects what is no object, and a member given twice (JSON.parse would keep the last silently)', async () => {
    expect(await readBundle(chunked('[1, 2]', 3))).toEqual(parseBundle([1, 2]));
    expect(await readBundle(chunked('{"carrierCode": "MAEU", "events": [], "carrierCode": "CMDU"}', 9))).toEqual({
      ok: false,
      issues: [{ path: 'carrierCode', message: 'is given more than once in the bundle object' }],
    });
  });

  it('reports progress as entries are validated', async () => {
    const seen: number[] = [];
    await readBundle(chunked(JSON.stringify(maeuBundle()), 50), { onProgress: (n) => seen.push(n), progressEvery: 4 });
    expect(seen).toEqual([4, 8, 12]); // 2 shipments and 11 events
  });
});
