import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { DatabaseSchema } from '../src/db/schema.js';
import { RAW_RENDERING_BYTES, ShipmentSnapshot, type SnapshotListener } from '../src/store/shipments/shipment-snapshot.js';

// A full collection on demand, so that what is measured is what is held (V8's own flag, set for this file).
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/**
 * The process's bytes outside the heap once a full collection has freed what it can. V8 frees array buffers'
 * memory on a background thread after the collection, so on a loaded machine a read right after gc() still counted
 * the garbage (this test failed so, 5 MB "held"): collect and read again until two reads agree.
 */
async function settledArrayBuffers(): Promise<number> {
  let last = -1;
  for (let i = 0; i < 50; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const now = process.memoryUsage().arrayBuffers;
    if (now === last) return now;
    last = now;
  }
  return last;
}

/** A rendering's JSON as REST keeps it: about 7 KB of events whose values differ, as a shipment's do. */
function renderingOf(shipment: number): Buffer {
  const events = Array.from({ length: 24 }, (_, i) => ({
    eventID: `${shipment.toString(16).padStart(8, '0')}-0000-4000-8000-${(i * 7919).toString(16).padStart(12, '0')}`,
    eventType: i % 3 === 0 ? 'TRANSPORT' : 'EQUIPMENT',
    eventClassifierCode: i % 4 === 0 ? 'PLN' : 'ACT',
    eventDateTime: new Date(Date.UTC(2026, 10, 1 + (i % 28), (shipment + i) % 24)).toISOString(),
    equipmentReference: `MSKU${String((shipment * 31 + i) % 10_000_000).padStart(7, '0')}`,
    eventLocation: { UNLocationCode: ['CNSHA', 'NLRTM', 'SGSIN', 'DEHAM'][i % 4] },
  }));
  return Buffer.from(JSON.stringify({ billOfLadingNumber: `BL${shipment}`, events }), 'utf8');
}

/**
 * What a held snapshot's renderings cost the process outside the V8 heap is what the cache counts for them
 * (src/store/shipments/snapshot-cache.ts bounds its memory by that count): a rendering kept as zlib returned it held its
 * 16 KiB output chunk for the 1 to 2 KB counted, so a cache counting 160 MiB held about a gigabyte.
 */
describe('kept renderings', () => {
  it('hold no more memory outside the heap than the cache counts for them', async () => {
    let counted = 0;
    const listener: SnapshotListener = {
      onLoad: (_snapshot, bytes) => {
        counted += bytes;
      },
      onFailure: () => {},
    };
    const db = {} as Kysely<DatabaseSchema>;
    const held = Array.from({ length: 300 }, (_, id) => new ShipmentSnapshot(db, { id, version: 1, master_json: '{}' }, listener));
    const renderings = held.map((snapshot) => renderingOf(snapshot.id));
    const before = await settledArrayBuffers();
    held.forEach((snapshot, i) => snapshot.keepRendering('rest-json:test', renderings[i] as Buffer));
    const grown = (await settledArrayBuffers()) - before;

    expect(counted).toBeGreaterThan(300 * 500);
    // Each kept rendering's own bytes and nothing of zlib's chunk; a little slack for the runtime's own buffers.
    expect(grown).toBeLessThan(counted * 1.25 + 64 * 1024);
    // And it is still the rendering.
    expect(held[7]?.rendering('rest-json:test')?.equals(renderings[7] as Buffer)).toBe(true);
  });

  it('keep a small rendering as it is, counted at its own size, and answer it byte for byte', () => {
    const counted: number[] = [];
    const listener: SnapshotListener = { onLoad: (_snapshot, bytes) => void counted.push(bytes), onFailure: () => {} };
    const snapshot = new ShipmentSnapshot({} as Kysely<DatabaseSchema>, { id: 1, version: 1, master_json: '{}' }, listener);
    const small = '{"eta":"2026-03-02T00:00:00.000Z","exceptions":[{"status":"DETECTED","title":"Ünïcode ✓"}]}';
    snapshot.keepRendering('graphql-json:small', small);
    const large = renderingOf(2);
    expect(large.byteLength).toBeGreaterThan(RAW_RENDERING_BYTES);
    snapshot.keepRendering('graphql-json:large', large);
    // The small one as its bytes (not a view of Node's shared pool), the large one compressed.
    expect(counted).toEqual([Buffer.byteLength(small), expect.any(Number)]);
    expect(counted[1]).toBeLessThan(large.byteLength / 2);
    expect(snapshot.rendering('graphql-json:small')?.toString('utf8')).toBe(small);
    expect(snapshot.rendering('graphql-json:large')?.equals(large)).toBe(true);
  });
});
