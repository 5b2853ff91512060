import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { issueMessage } from '../src/ingest/bundle-issues.js';
import { trackingEvent } from '../src/ingest/event-schema.js';
import { acceptEvent } from '../src/ingest/event-validator.js';
import { rawEquipmentEvent, rawShipmentEvent, rawTransportEvent } from './support/ingest-fixtures.js';

/**
 * Ingest's per-event path (src/ingest/event-validator.ts) is compiled from the DCSA 2.2 schemas; the
 * explaining validator (src/ingest/event-schema.ts) decides what it does not take and names the problems.
 * A user relies on one verdict whichever path runs: an event the compiled path accepts is accepted, as the
 * same normalized event, by the explaining one; and a conformant event takes the compiled path.
 */

type Json = Record<string, any>;

/** The spec's own spelling of an event: unLocationCode, and no transportCallID. */
const specSpelled = (event: Json): Json => ({
  ...event,
  transportCall: event.transportCall && {
    ...event.transportCall,
    transportCallID: undefined,
    UNLocationCode: undefined,
    unLocationCode: event.transportCall.UNLocationCode,
  },
});

const SEEDS: Json[] = [
  rawTransportEvent(1),
  rawEquipmentEvent(2),
  rawShipmentEvent(3),
  specSpelled(rawTransportEvent(4)),
  specSpelled(rawEquipmentEvent(5)),
  rawEquipmentEvent(6, { transportCall: undefined, eventLocation: { locationName: 'Rotterdam', UNLocationCode: 'NLRTM' } }),
].map((e) => JSON.parse(JSON.stringify(e)) as Json);

function explained(raw: unknown) {
  return trackingEvent.safeParse(raw, { error: issueMessage });
}

/** Every path to a value inside an event (objects and arrays), as key lists. */
function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return [];
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  return entries.flatMap(([key, v]) => [[...prefix, key], ...pathsOf(v, [...prefix, key])]);
}

function setAt(target: Json, path: (string | number)[], value: unknown): void {
  const parent = path.slice(0, -1).reduce<any>((node, key) => node[key], target);
  const key = path[path.length - 1]!;
  if (value === DELETE) delete parent[key];
  else parent[key] = value;
}

const DELETE = Symbol('delete');

/** Values that break some rule somewhere: types, lengths, whitespace, code lists, timestamps, check digits, spellings. */
const suspicious = fc.oneof(
  fc.constantFrom<unknown>(
    DELETE,
    null,
    '',
    ' NLRTM',
    'NLRTM ',
    'nlrtm',
    'DEHAM',
    'ACT',
    'REQ',
    'LADEN',
    'FULL',
    'VESSEL',
    'SHIP',
    '2024-03-05T10:00:00',
    '2024-03-05T10:00:00Z',
    '2024-13-40T25:00:00Z',
    'MSKU1234565',
    'MSKU1234560',
    '9321483',
    '9321484',
    '3CECB101-7A1A-43A4-9D62-E88A131651E2',
    'not-a-uuid',
    'x'.repeat(101),
    '😀'.repeat(60),
    'ARRI',
    'GONE',
    'CBR',
    'XYZ',
    0,
    7,
    2 ** 31,
    1.5,
    '2',
    true,
    [],
    {},
  ),
  fc.string({ maxLength: 8 }),
);

describe('ingest validation compiled from the DCSA 2.2 schemas', () => {
  it('takes every conformant event, as the explaining validator normalizes it', () => {
    for (const seed of SEEDS) {
      const reference = explained(seed);
      expect(reference.success).toBe(true);
      expect(acceptEvent(seed)).toEqual(reference.data);
    }
  });

  it('never accepts what the explaining validator rejects, nor accepts it differently (random mutations)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...SEEDS),
        fc.array(fc.tuple(fc.nat(), suspicious), { minLength: 1, maxLength: 3 }),
        (seed, mutations) => {
          const event = structuredClone(seed);
          for (const [pick, value] of mutations) {
            const paths = pathsOf(event);
            if (paths.length === 0) break;
            setAt(event, paths[pick % paths.length]!, value);
          }
          const fast = acceptEvent(event);
          if (fast === undefined) return;
          const reference = explained(event);
          expect(reference.success, JSON.stringify(event)).toBe(true);
          expect(fast).toEqual(reference.data);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('refuses an eventType that names an inherited property (hasOwnProperty, constructor, __proto__) without throwing', () => {
    for (const eventType of ['hasOwnProperty', 'constructor', '__proto__', 'toString', 'valueOf']) {
      const event = { ...SEEDS[0]!, eventType };
      expect(acceptEvent(event)).toBeUndefined();
      expect(explained(event).success).toBe(false);
    }
  });

  it('leaves to the explaining validator what the standard rejects but bundles may carry (null for a missing field)', () => {
    const event = { ...SEEDS[0]!, delayReasonCode: null, documentReferences: null };
    expect(acceptEvent(event)).toBeUndefined();
    expect(explained(event).success).toBe(true);
  });
});
