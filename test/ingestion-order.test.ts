import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSandboxBundle } from '../db/sandbox-bundle.js';
import { evaluateTimeRules } from '../src/store/time-rules.js';
import { DEFAULT_THRESHOLDS } from '../src/config/config.js';
import { createTestApp, type TestApp } from './support/app-fixture.js';
import { dialects } from './support/databases.js';

/**
 * Carriers deliver events late, in pieces and out of order. Whatever the order
 * of ingestion, the same events must give the same snapshots and exceptions.
 */
const NOW = new Date('2026-11-22T12:00:00.000Z');
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

async function snapshots(f: TestApp): Promise<unknown[]> {
  const tokens = new Map<string, string>();
  for (const account of new Set(LOOKUPS.map(([a]) => a))) tokens.set(account, (await f.tokenFor(account)).token);
  const out = [];
  for (const [account, bl] of LOOKUPS) {
    const response = await f.get(`/v2/shipments?billOfLadingNumber=${bl}`, tokens.get(account));
    expect(response.status).toBe(200);
    out.push(((await response.json()) as { shipmentTracking: unknown }).shipmentTracking);
  }
  return out;
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
    keys.map((k, i) => [k, i] as const).sort((x, y) => x[0] - y[0]).map(([, i]) => i),
  );

describe.each(dialects)('ingestion order on $name', ({ name, enabled }) => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const f of apps) await f.destroy();
  });

  it.skipIf(!enabled)('gives the same snapshots and exceptions for any order of ingestion', async () => {
    const bundles = buildSandboxBundle(NOW) as RawBundle[];
    const reference = await createTestApp(name);
    apps.push(reference);
    for (const bundle of bundles) await reference.ingest(bundle, NOW);
    const expected = await snapshots(reference);
    const exceptionTypes = new Set((expected as any[]).flatMap((s) => s.exceptions.map((e: any) => `${e.exceptionType}/${e.status}`)));
    expect(exceptionTypes.size).toBeGreaterThanOrEqual(9);

    await fc.assert(
      fc.asyncProperty(
        fc.tuple(...bundles.map((b) => permutation(b.events?.length ?? 0))),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 4 }),
        fc.array(fc.nat({ max: 100 }), { minLength: 1, maxLength: 12 }),
        async (permutations, cuts, keys) => {
          const f = await createTestApp(name);
          try {
            for (const piece of pieces(bundles, permutations, cuts, keys)) await f.ingest(piece, NOW);
            expect(await snapshots(f)).toEqual(expected);
          } finally {
            await f.destroy();
          }
        },
      ),
      { numRuns: name === 'sqlite' ? 6 : 3 },
    );
  });

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
