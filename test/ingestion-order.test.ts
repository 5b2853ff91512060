import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSandboxBundle } from '../db/sandbox-bundle.js';
import type { TrackingException } from '../src/domain/types.js';
import { evaluateTimeRules } from '../src/store/shipment-writes/time-rules.js';
import { loadLifecycleRows } from '../src/store/exceptions/exception-state.js';
import { createTestApp, type TestApp } from './support/app-fixture.js';
import { dialects } from './support/databases.js';
import { DEFAULT_THRESHOLDS } from '../src/domain/thresholds.js';

/**
 * Carriers deliver events late, in pieces and out of order. Whatever the
 * order of ingestion, the same events give the same snapshot (events,
 * milestones, schedule), and the exceptions keep the two promises of docs/architecture.md,
 * Exception rules (issue 8):
 * (a) no exceptionID once stored is ever missing from a later snapshot, and
 *     no RESOLVED one changes again (so none goes back to DETECTED);
 * (b) the exceptions detected (type, subject — the container or port —,
 *     raising event) are the same for every order of the same facts.
 * Exceptions shown on partial knowledge and later refuted by a late event
 * (RESOLVED, standing for no episode of the facts) are what (a) keeps and
 * (b) leaves out.
 */
const NOW = new Date('2026-11-22T12:00:00.000Z');
/** When the last piece is learned; the pieces before it are learned a minute apart before that. */
const END = new Date(NOW.getTime() + 60 * 60_000);
const LOOKUPS = [
  ['demo-account', 'MAEU262150001'],
  ['demo-account', 'MAEU262150002'],
  ['demo-account', 'MAEU262150003'],
  ['demo-account', 'MAEU261900004'],
  ['demo-account', 'MAEU262150005'],
  ['demo-account', 'CMDUSHA2600451'],
  ['other-account', 'CMDUPUS2600087'],
] as const;

type RawBundle = { carrierCode: string; shipments?: unknown[]; events?: unknown[] };

async function snapshots(f: TestApp): Promise<{ shipmentTracking: any }[]> {
  const tokens = new Map<string, string>();
  for (const account of new Set(LOOKUPS.map(([a]) => a))) tokens.set(account, (await f.tokenFor(account)).token);
  const out = [];
  for (const [account, bl] of LOOKUPS) {
    const response = await f.get(`/v2/shipments?billOfLadingNumber=${bl}`, tokens.get(account));
    expect(response.status).toBe(200);
    out.push((await response.json()) as { shipmentTracking: any });
  }
  return out;
}

/** Everything of the snapshots but the exceptions. */
const withoutExceptions = (list: { shipmentTracking: any }[]) =>
  list.map(({ shipmentTracking: { exceptions: _exceptions, ...rest } }) => rest);

/** Every served exception, by exceptionID. */
const servedExceptions = (list: { shipmentTracking: any }[]) =>
  new Map<string, TrackingException>(
    list.flatMap((s) => (s.shipmentTracking.exceptions as TrackingException[]).map((e) => [e.exceptionID, e] as const)),
  );

async function storedRows(f: TestApp) {
  const ids = (await f.t.database.db.selectFrom('shipment').select('id').execute()).map((r) => r.id);
  return [...(await loadLifecycleRows(f.t.database.db, ids)).values()].flat();
}

/** Every stored exception as served (the lookup serves these bodies), by exceptionID. */
async function storedExceptions(f: TestApp): Promise<Map<string, TrackingException>> {
  return new Map((await storedRows(f)).map((r) => [r.exceptionID, r.body]));
}

/** What each stored exception stands for among the facts: (type, subject, raising event); refuted ones stand for none. */
async function standsFor(f: TestApp): Promise<string[]> {
  return (await storedRows(f))
    .filter((r) => r.raisedBy !== null)
    .map((r) => JSON.stringify([r.type, r.subject, r.raisedBy]))
    .sort();
}

/**
 * Splits each carrier's bundle into pieces: its shipments alone, and its
 * events, permuted, in chunks at the given cut points. Pieces are then
 * ingested in the order of their random keys (carriers interleaved).
 */
function pieces(bundles: RawBundle[], permutations: number[][], cuts: number[], keys: number[]): RawBundle[] {
  const all: RawBundle[] = [];
  bundles.forEach((bundle, b) => {
    all.push({ carrierCode: bundle.carrierCode, shipments: bundle.shipments ?? [] });
    const events = (bundle.events ?? []).map((_, i, list) => list[permutations[b]![i]!]);
    const points = [...new Set(cuts.map((c) => Math.floor(c * events.length)))].sort((x, y) => x - y);
    let start = 0;
    for (const cut of [...points, events.length]) {
      if (cut > start) all.push({ carrierCode: bundle.carrierCode, events: events.slice(start, cut) });
      start = cut;
    }
  });
  return all
    .map((piece, i) => ({ piece, key: keys[i % keys.length]! + i / 1000 }))
    .sort((x, y) => x.key - y.key)
    .map(({ piece }) => piece);
}

/** A permutation of 0..n-1 from random sort keys. */
const permutation = (n: number) =>
  fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: n, maxLength: n }).map((keys) =>
    keys
      .map((k, i) => [k, i] as const)
      .sort((x, y) => x[0] - y[0])
      .map(([, i]) => i),
  );

describe.each(dialects)('ingestion order on $name', ({ name, enabled }) => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const f of apps) await f.destroy();
  });

  it.skipIf(!enabled)(
    'keeps (a) and (b) and gives the same snapshots for any order of ingestion',
    async () => {
      const bundles = buildSandboxBundle(NOW) as RawBundle[];
      const reference = await createTestApp(name);
      apps.push(reference);
      for (const bundle of bundles) await reference.ingest(bundle, END);
      const expected = await snapshots(reference);
      const expectedStandsFor = await standsFor(reference);
      const exceptionTypes = new Set([...servedExceptions(expected).values()].map((e) => `${e.exceptionType}/${e.status}`));
      expect(exceptionTypes.size).toBeGreaterThanOrEqual(9);

      await fc.assert(
        fc.asyncProperty(
          fc.tuple(...bundles.map((b) => permutation(b.events?.length ?? 0))),
          fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 4 }),
          fc.array(fc.nat({ max: 100 }), { minLength: 1, maxLength: 12 }),
          async (permutations, cuts, keys) => {
            const f = await createTestApp(name);
            try {
              const all = pieces(bundles, permutations, cuts, keys);
              let seen = new Map<string, TrackingException>();
              for (const [i, piece] of all.entries()) {
                // Each piece is learned a little later, the last one at END.
                const learnedAt = new Date(END.getTime() - (all.length - 1 - i) * 60_000);
                await f.ingest(piece, learnedAt);
                const served = await storedExceptions(f);
                for (const [id, before] of seen) {
                  const after = served.get(id);
                  expect(after, `exception ${id} went missing`).toBeDefined();
                  if (before.status === 'RESOLVED') expect(after).toEqual(before);
                  expect(after?.detectedDateTime).toBe(before.detectedDateTime);
                }
                for (const e of served.values()) expect(e.detectedDateTime <= learnedAt.toISOString()).toBe(true);
                seen = served;
              }
              const final = await snapshots(f);
              expect(withoutExceptions(final)).toEqual(withoutExceptions(expected));
              // The lookups serve exactly the stored exceptions.
              expect(servedExceptions(final)).toEqual(seen);
              expect(await standsFor(f)).toEqual(expectedStandsFor);
            } finally {
              await f.destroy();
            }
          },
        ),
        { numRuns: name === 'sqlite' ? 12 : 6 },
      );
    },
    120_000,
  );

  it.skipIf(!enabled)('re-evaluates time-based rules with the clock and changes nothing when nothing is due', async () => {
    const f = await createTestApp(name);
    apps.push(f);
    for (const bundle of buildSandboxBundle(NOW) as RawBundle[]) await f.ingest(bundle, NOW);
    const { token } = await f.tokenFor('demo-account');
    const demurrage = async () => {
      const body = (await (await f.get('/v2/shipments?billOfLadingNumber=MAEU262150002', token)).json()) as any;
      return body.shipmentTracking.exceptions.find((e: any) => e.exceptionType === 'DEMURRAGE_RISK' && e.status === 'DETECTED');
    };
    const before = await demurrage();
    expect(before.severity).toBe('WARNING');
    // Same clock: nothing is due, no shipment changes.
    expect((await evaluateTimeRules(f.t.database, DEFAULT_THRESHOLDS, NOW)).changed).toBe(0);
    // Three days later the free time has expired: the same exception turns CRITICAL.
    const later = new Date(NOW.getTime() + 72 * 3600_000);
    const result = await evaluateTimeRules(f.t.database, DEFAULT_THRESHOLDS, later);
    expect(result.changed).toBeGreaterThan(0);
    const after = await demurrage();
    expect(after).toMatchObject({ exceptionID: before.exceptionID, severity: 'CRITICAL', detectedDateTime: before.detectedDateTime });
  });
});
