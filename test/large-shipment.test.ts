import { afterEach, describe, expect, it } from 'vitest';
import { bundleOf } from '../bench/generate.js';
import { ingestBundle } from '../src/ingest/ingest-bundle.js';
import { parseBundle } from '../src/ingest/parse-bundle.js';
import { decodeEventJson } from '../src/store/events/event-payload.js';
import { decodeMilestonesJson } from '../src/store/shipments/milestones-payload.js';
import { createTestDatabase, dialects, type TestDatabase } from './support/databases.js';

/**
 * A shipment of 150 containers (1,811 events) has derived state far larger
 * than 64 KB (its milestone index alone): every column holding it must take
 * that on both stores. On MariaDB the milestone index was a `text` column and
 * such an ingest failed with "Data too long" (fixed by migration 005); it is stored compressed since migration 023.
 */
describe.each(dialects)('a very large shipment ($name)', (dialect) => {
  let t: TestDatabase | undefined;
  afterEach(async () => {
    await t?.destroy();
    t = undefined;
  });

  it.skipIf(!dialect.enabled)(
    'ingests every event, and its milestone index is stored whole',
    async () => {
      t = await createTestDatabase(dialect.name);
      const parsed = parseBundle(bundleOf([7], { containers: 150, tag: 'L', space: 7 }));
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues.slice(0, 3)));
      const summary = await ingestBundle(t.database, parsed.bundle, { now: () => new Date('2026-11-23T00:00:00Z') });
      expect(summary.eventsStored).toBe(150 * 12 + 8 + 3);

      const row = await t.database.db.selectFrom('shipment').select(['milestones_json', 'milestones']).executeTakeFirstOrThrow();
      const json = decodeMilestonesJson(row);
      const index = JSON.parse(json ?? '{}') as Record<string, unknown>;
      expect(json?.length).toBeGreaterThan(65_535);
      // Stored compact (migration 023): the plain column is empty.
      expect(row.milestones_json).toBeNull();
      // Every container's milestones are in it (7 of its own at least: gate out, stuffing, gate in, load, discharge...).
      expect(Object.keys(index).length).toBeGreaterThanOrEqual(150 * 7);

      // Its events take four insert batches of 500 rows (write-events.ts): every event is stored once, in bundle
      // order, with its own payload and references.
      const events = await t.database.db
        .selectFrom('event')
        .select(['seq', 'event_id', 'payload', 'payload_json'])
        .orderBy('seq')
        .execute();
      expect(events.map((e) => e.event_id)).toEqual(parsed.bundle.events.map((e) => e.eventID));
      for (const [i, e] of events.entries()) expect(decodeEventJson(e)).toBe(JSON.stringify(parsed.bundle.events[i]));
      const referenced = await t.database.db.selectFrom('event_reference').select('event_seq').distinct().execute();
      expect(new Set(referenced.map((r) => r.event_seq))).toEqual(new Set(events.map((e) => e.seq)));
    },
    60_000,
  );
});
