import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations, PREVIOUS_RELEASE_MIGRATIONS } from '../db/migrations/index.js';
import { VERSION } from '../src/domain/release.js';
import { ingestBundle } from '../src/ingest/ingest-bundle.js';
import { parseBundle } from '../src/ingest/parse-bundle.js';
import { grantAccountAccess, revokeAccountAccess } from '../src/store/access/shipment-access.js';
import { cursorNow, readChanges, type Change } from '../src/store/changes/change-log.js';
import { orderCommittedChanges } from '../src/store/changes/change-order.js';
import { readAccountFeed } from '../src/store/changes/account-feed.js';
import { decodeCursor } from '../src/domain/change-cursor.js';
import { encodeFeedCursor } from '../src/domain/feed-cursor.js';
import { writesCompact } from '../src/store/encoding/write-forms.js';
import { decodeEventJson } from '../src/store/events/event-payload.js';
import { contractSteps } from '../src/store/housekeeping/contract-steps.js';
import { beat, listInstances, startHeartbeat } from '../src/store/housekeeping/instance-heartbeats.js';
import { migrateToLatest, RELEASE_MIGRATION_TABLE } from '../src/store/housekeeping/migrate.js';
import { finishUpgrade } from '../src/store/housekeeping/upgrade-finish.js';
import { FINISHED_MARK, readUpgradeState, recordedMigrations } from '../src/store/housekeeping/upgrade-state.js';
import { enqueuePushTriggers } from '../src/store/push/push-outbox.js';
import { decodeMilestonesJson } from '../src/store/shipments/milestones-payload.js';
import { readStoredSnapshot } from '../src/store/shipments/stored-snapshots.js';
import { createTestDatabase, dialects, type TestDatabase } from './support/databases.js';
import { maeuBackfillBundle, maeuBundle } from './support/fixture-bundle.js';

/**
 * Rolling upgrades from 0.4.0 (docs/upgrading.md), on both stores: the bookkeeping both releases accept, the
 * forms this release writes until the finish, and what finish does.
 */

/**
 * Release 0.4.0's row decoding, copied from 269978e (src/store/stored-snapshots.ts readStoredSnapshot,
 * src/store/chunked-state.ts and src/store/dcsa-events.ts for events, src/store/derived-state.ts for the milestone
 * index): it reads only the text columns, and JSON.parse('') is the SyntaxError the issue saw.
 */
const release040 = {
  async snapshot(db: Kysely<any>, shipmentId: number) {
    const row = await db
      .selectFrom('shipment_snapshot')
      .select(['version', 'tracking_json', 'exceptions_json'])
      .where('shipment_id', '=', shipmentId)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      version: Number(row.version),
      tracking: JSON.parse(row.tracking_json) as unknown,
      exceptions: JSON.parse(row.exceptions_json) as unknown,
    };
  },
  async events(db: Kysely<any>) {
    const rows = await db.selectFrom('event').select(['seq', 'payload_json']).orderBy('seq').execute();
    return rows.map((r: { seq: number; payload_json: string }) => ({ seq: Number(r.seq), event: JSON.parse(r.payload_json) as unknown }));
  },
  async milestones(db: Kysely<any>) {
    const rows = await db.selectFrom('shipment').select(['id', 'milestones_json']).orderBy('id').execute();
    // "No index yet (a shipment stored before push delivery)": null reads as none; anything else is parsed.
    return rows.map((r: { id: number; milestones_json: string | null }) =>
      r.milestones_json === null ? null : (JSON.parse(r.milestones_json) as unknown),
    );
  },
};

/**
 * Release 0.4.0's readers of change_log, copied from 269978e. Its one query (src/store/change-log.ts readRows, after
 * the same ordering batches as this release's, src/store/change-order.ts): the rows after a (commit_seq, id)
 * position up to the head, in that order, filtered by account through `shipment_account.shipment_id =
 * change_log.shipment_id` (no `account_id`: 0.4.0 does not know it) or not at all (live updates). Then:
 *
 * - the account feed (GraphQL `accountChanges`, and GET /v2/changes, which runs the same document) serializes each
 *   row's trigger_type through the enum `TriggerType` (src/domain/enumerations.ts TRIGGER_TYPE_LIST at 269978e): a
 *   kind outside it fails the page ("Enum \"TriggerType\" cannot represent value"), here an Error;
 * - live updates (src/push/change-feed.ts) hand each row to the followers of `shipment_id`, which keep only the
 *   kinds they asked for (EVENT_TRIGGER, EXCEPTION_DETECTED, EXCEPTION_RESOLVED: src/graphql/schema/live-updates.ts).
 */
const TRIGGER_TYPES_040 = new Set(['MANUAL_TRIGGER', 'SCHEDULED_TRIGGER', 'EVENT_TRIGGER', 'EXCEPTION_DETECTED', 'EXCEPTION_RESOLVED']);
const changes040 = {
  async rows(db: Kysely<any>, accountIds?: readonly string[]) {
    await orderCommittedChanges(db);
    const head = await db.selectFrom('change_sequence').select('last_seq').where('id', '=', 1).executeTakeFirstOrThrow();
    let query = db
      .selectFrom('change_log as c')
      .select(['c.id', 'c.commit_seq', 'c.shipment_id', 'c.trigger_type', 'c.triggered_by_event', 'c.exception_id', 'c.created_at'])
      .where('c.commit_seq', '<=', Number(head.last_seq))
      .orderBy('c.commit_seq')
      .orderBy('c.id');
    if (accountIds !== undefined) {
      query = query.where(({ exists, selectFrom }) =>
        exists(
          selectFrom('shipment_account as a')
            .select('a.shipment_id')
            .whereRef('a.shipment_id', '=', 'c.shipment_id')
            .where('a.account_id', 'in', accountIds),
        ),
      );
    }
    return (await query.execute()).map((r: { shipment_id: number; trigger_type: string }) => ({
      shipmentId: r.shipment_id,
      triggerType: r.trigger_type,
    }));
  },
  /** The account feed's changes: [shipment, kind], or the error the enum raises. */
  async accountFeed(db: Kysely<any>, accountIds: readonly string[]) {
    return (await this.rows(db, accountIds)).map((c) => {
      if (!TRIGGER_TYPES_040.has(c.triggerType)) throw new Error(`Enum "TriggerType" cannot represent value: "${c.triggerType}"`);
      return [c.shipmentId, c.triggerType] as const;
    });
  },
  /** What reaches the followers of these shipments (every live subscription of 0.4.0 follows one shipment). */
  async followed(db: Kysely<any>, shipmentIds: readonly number[]) {
    return (await this.rows(db)).filter((c) => shipmentIds.includes(c.shipmentId));
  },
};

/** 0.4.0's Migrator at its start-up: its own migrations, Kysely's default table (src/store/migrate.ts at 269978e). */
async function startRelease040(t: TestDatabase): Promise<void> {
  const all = migrations(t.database.dialect);
  const known: Record<string, Migration> = Object.fromEntries(PREVIOUS_RELEASE_MIGRATIONS.map((n) => [n, all[n]!]));
  const { error } = await new Migrator({ db: t.database.db, provider: { getMigrations: async () => known } }).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

async function ingest(t: TestDatabase, raw: unknown): Promise<void> {
  const parsed = parseBundle(raw);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  await ingestBundle(t.database, parsed.bundle, { now: () => new Date('2026-11-20T00:00:00Z') });
}

describe.each(dialects)('a rolling upgrade from 0.4.0 on $name', ({ name, enabled }) => {
  let t: TestDatabase;
  beforeAll(async () => {
    // The database as 0.4.0 left it.
    if (enabled) t = await createTestDatabase(name, { migrateTo: '014-tracking-requests' });
  });
  afterAll(async () => t?.destroy());

  it.skipIf(!enabled)('keeps 0.4.0 starting while this release migrates, and records later migrations apart', async () => {
    const applied = await migrateToLatest(t.database);
    expect(applied).toEqual(Object.keys(migrations(t.database.dialect)).filter((n) => !PREVIOUS_RELEASE_MIGRATIONS.includes(n)));
    expect(await recordedMigrations(t.database.db)).toEqual([...PREVIOUS_RELEASE_MIGRATIONS]);
    await expect(startRelease040(t)).resolves.toBeUndefined();
    const { rows } = await sql<{ name: string }>`select name from ${sql.table(RELEASE_MIGRATION_TABLE)} order by name`.execute(
      t.database.db,
    );
    expect(rows.map((r) => r.name)).toEqual(applied);
    // Both start again, in either order.
    expect(await migrateToLatest(t.database)).toEqual([]);
    await expect(startRelease040(t)).resolves.toBeUndefined();
    expect(await readUpgradeState(t.database.db)).toEqual({ writesCompact: false, pending: Object.keys(contractSteps()), finished: false });
  });

  it.skipIf(!enabled)('writes only what 0.4.0 reads until the finish, and reads it itself', async () => {
    expect(writesCompact(t.database.db)).toBe(false);
    await ingest(t, maeuBundle());
    await ingest(t, maeuBackfillBundle());
    const db = t.database.db as Kysely<any>;
    const events = await release040.events(db);
    expect(events.length).toBeGreaterThan(10);
    const shipments = await db.selectFrom('shipment').select('id').orderBy('id').execute();
    for (const { id } of shipments) expect(await release040.snapshot(db, id)).toMatchObject({ version: expect.any(Number) });
    const milestones = await release040.milestones(db);
    expect(milestones.some((m: unknown) => m !== null)).toBe(true);
    // No compact column filled that a 0.4.0 write would leave stale.
    const compact = await db.selectFrom('event').select('seq').where('payload', 'is not', null).execute();
    expect(compact).toEqual([]);
    const snapshotForms = await db.selectFrom('shipment_snapshot').select('stored_form').distinct().execute();
    expect(snapshotForms.map((r: { stored_form: number }) => Number(r.stored_form))).toEqual([0]);
  });

  // Access changes (docs/upgrading.md, Access changes): what 0.5.0's readers saw of them before the finish, to compare after.
  let accessStart: string;
  let savedCursor: string;
  let beforeFinish: { other: Change[]; acctA: Change[]; live: Change[] };
  const OTHER = 'acct-upgrade-other';
  const key = { carrierCode: 'MAEU', carrierBookingReference: 'MAEU-BKG-1001' };
  /** Every change after `after` for the reader, one at a time: each page resumes from the cursor the last gave. */
  async function readAll(db: Kysely<any>, after: string, filter: { accountIds?: string[] }): Promise<Change[]> {
    const out: Change[] = [];
    let cursor = after;
    for (;;) {
      const page = await readChanges(db, { after: cursor, limit: 1, ...filter });
      out.push(...page.changes);
      cursor = page.cursor;
      if (!page.more) return out;
    }
  }
  const kinds = (changes: readonly Change[]) => changes.map((c) => [c.shipmentId, c.triggerType, c.accountId]);
  /** The account feed's entries after a change-log cursor: booking, whether visible, the kinds (one page). */
  async function feedEntries(db: Kysely<any>, accountIds: string[], after: string) {
    const page = await readAccountFeed(db, {
      accountIds,
      after: encodeFeedCursor({ phase: 'changes', position: decodeCursor(after) }),
      limit: 100,
    });
    return page.entries.map((e) => [e.row.carrier_booking_reference, e.visible, e.changes.map((c) => c.triggerType)]);
  }

  it.skipIf(!enabled)(
    "holds grants, revokes and merges where 0.4.0's change-log readers never meet them, and gives them to its own readers once, in order",
    async () => {
      const db = t.database.db as Kysely<any>;
      const shipmentId = (
        await db
          .selectFrom('shipment')
          .select('id')
          .where('carrier_booking_reference', '=', key.carrierBookingReference)
          .executeTakeFirstOrThrow()
      ).id as number;
      // The ingests above named acct-a: their GRANTED changes are in the log already.
      expect((await readChanges(db, { after: null, limit: 100, accountIds: ['acct-a'] })).changes.map((c) => c.triggerType)).toContain(
        'GRANTED',
      );
      accessStart = await cursorNow(db);
      // An operator's grant to another account, a merge (the change ingest writes for one), the revoke.
      expect(await grantAccountAccess(db, t.database.dialect, key, OTHER, new Date('2026-11-21T00:00:00Z'))).toMatchObject({
        granted: true,
      });
      // 0.4.0 while the other account sees the shipment: its feeds, acct-a's included, show none of it.
      await expect(changes040.accountFeed(db, [OTHER])).resolves.not.toContainEqual([shipmentId, 'GRANTED']);
      const mergedAt = new Date('2026-11-21T00:00:01Z');
      await t.database.db
        .transaction()
        .execute((trx) =>
          enqueuePushTriggers(
            trx,
            new Map([[shipmentId, [{ triggerType: 'SHIPMENT_MERGED', eventID: null, exceptionID: null }]]]),
            mergedAt,
          ),
        );
      savedCursor = (await readChanges(db, { after: accessStart, limit: 1, accountIds: [OTHER] })).cursor;
      expect(await revokeAccountAccess(db, t.database.dialect, key, OTHER, 'test', new Date('2026-11-21T00:00:02Z'))).toMatchObject({
        hadAccess: true,
      });
      await t.database.db
        .transaction()
        .execute((trx) =>
          enqueuePushTriggers(
            trx,
            new Map([[shipmentId, [{ triggerType: 'EVENT_TRIGGER', eventID: null, exceptionID: null }]]]),
            new Date('2026-11-21T00:00:03Z'),
          ),
        );

      // 0.4.0: every account's feed reads without error and holds only the kinds it knows, none of another
      // account's access; live updates of every shipment get only the kinds they know.
      const shipments = (await db.selectFrom('shipment').select('id').execute()).map((r: { id: number }) => r.id);
      for (const account of ['acct-a', 'acct-b', OTHER]) {
        const feed = await changes040.accountFeed(db, [account]);
        for (const [, kind] of feed) expect(TRIGGER_TYPES_040).toContain(kind);
      }
      expect(await changes040.accountFeed(db, ['acct-a'])).toContainEqual([shipmentId, 'EVENT_TRIGGER']);
      const followed = await changes040.followed(db, shipments);
      expect(followed.length).toBeGreaterThan(0);
      for (const c of followed) expect(TRIGGER_TYPES_040).toContain(c.triggerType);
      // Nothing of 0.4.0's own kinds was held: it still reads every change of a shipment it knows.
      const held = await db.selectFrom('change_log').select(['trigger_type']).where('shipment_id', '<', 0).execute();
      expect(new Set(held.map((r: { trigger_type: string }) => r.trigger_type))).toEqual(
        new Set(['GRANTED', 'REVOKED', 'SHIPMENT_MERGED']),
      );

      // 0.5.0: the other account gets its grant and its revoke; acct-a (who sees the shipment) the merge and the
      // event, in commit order, once each, reading one change at a time; live updates the merge, no access change.
      beforeFinish = {
        other: await readAll(db, accessStart, { accountIds: [OTHER] }),
        acctA: await readAll(db, accessStart, { accountIds: ['acct-a'] }),
        live: await readAll(db, accessStart, {}),
      };
      expect(kinds(beforeFinish.other)).toEqual([
        [shipmentId, 'GRANTED', OTHER],
        [shipmentId, 'REVOKED', OTHER],
      ]);
      expect(kinds(beforeFinish.acctA)).toEqual([
        [shipmentId, 'SHIPMENT_MERGED', null],
        [shipmentId, 'EVENT_TRIGGER', null],
      ]);
      expect(kinds(beforeFinish.live)).toEqual(kinds(beforeFinish.acctA));
      // As the account feed (GraphQL accountChanges, GET /v2/changes) groups them: the shipment, by its real id.
      expect(await feedEntries(db, [OTHER], accessStart)).toEqual([[key.carrierBookingReference, false, ['GRANTED', 'REVOKED']]]);
      expect(await feedEntries(db, ['acct-a'], accessStart)).toEqual([
        [key.carrierBookingReference, true, ['SHIPMENT_MERGED', 'EVENT_TRIGGER']],
      ]);
      // Filtered by shipment (a live subscription's read) the same two.
      expect(kinds((await readChanges(db, { after: accessStart, limit: 10, shipmentIds: [shipmentId] })).changes)).toEqual(
        kinds(beforeFinish.acctA),
      );
    },
  );

  it.skipIf(!enabled)('refuses to finish while an older release is alive, and until the operator says 0.4.0 is stopped', async () => {
    const now = new Date();
    await beat(t.database.db, t.database.dialect, { id: 'old-host:1', version: '0.4.9', startedAt: now.toISOString() }, now);
    const blocked = await finishUpgrade(t.database, { propagationMs: 0 });
    expect(blocked).toMatchObject({ status: 'older-instances-alive', instances: [{ id: 'old-host:1', version: '0.4.9', alive: true }] });
    // Half a minute without a beat: no longer alive.
    const later = new Date(now.getTime() + 31_000);
    expect(await listInstances(t.database.db, later)).toMatchObject([{ id: 'old-host:1', alive: false }]);
    expect(await finishUpgrade(t.database, { propagationMs: 0, now: () => later })).toEqual({
      status: 'previous-release-may-run',
      previousVersion: '0.4.0',
    });
    expect((await readUpgradeState(t.database.db)).writesCompact).toBe(false);
  });

  it.skipIf(!enabled)(
    'finishes: the contract steps rewrite every row compact, reads give the same, and 0.4.0 can no longer start',
    async () => {
      const db = t.database.db as Kysely<any>;
      const shipments = (await db.selectFrom('shipment').select('id').orderBy('id').execute()).map((r: { id: number }) => r.id);
      const read = async () => ({
        events: (await db.selectFrom('event').select(['seq', 'payload', 'payload_json']).orderBy('seq').execute()).map(decodeEventJson),
        milestones: (await db.selectFrom('shipment').select(['milestones', 'milestones_json']).orderBy('id').execute()).map(
          decodeMilestonesJson,
        ),
        snapshots: await Promise.all(
          shipments.map((id: number) => readStoredSnapshot(db, id, new Set(['tracking', 'exceptions'] as const))),
        ),
      });
      const before = await read();
      const later = new Date(Date.now() + 31_000);
      expect(await finishUpgrade(t.database, { previousReleaseStopped: true, propagationMs: 0, now: () => later })).toEqual({
        status: 'finished',
        ran: Object.keys(contractSteps()),
      });
      expect(writesCompact(t.database.db)).toBe(true);
      const after = await read();
      expect(after.events).toEqual(before.events);
      expect(after.milestones).toEqual(before.milestones);
      expect(after.snapshots.map((s) => ({ ...s, bytes: 0 }))).toEqual(before.snapshots.map((s) => ({ ...s, bytes: 0 })));
      expect(await db.selectFrom('event').select('seq').where('payload', 'is', null).execute()).toEqual([]);
      expect(await db.selectFrom('shipment_snapshot').select('shipment_id').where('stored_form', '=', 0).execute()).toEqual([]);
      // The held access changes are plain now, at the same places: every reader gets exactly what it got before,
      // and a cursor saved before the finish resumes after it with nothing lost or repeated.
      expect(await db.selectFrom('change_log').select('id').where('shipment_id', '<', 0).execute()).toEqual([]);
      expect(await readAll(db, accessStart, { accountIds: [OTHER] })).toEqual(beforeFinish.other);
      expect(await readAll(db, accessStart, { accountIds: ['acct-a'] })).toEqual(beforeFinish.acctA);
      expect(await readAll(db, accessStart, {})).toEqual(beforeFinish.live);
      expect(await readAll(db, savedCursor, { accountIds: [OTHER] })).toEqual(beforeFinish.other.slice(1));
      expect(await feedEntries(db, [OTHER], accessStart)).toEqual([[key.carrierBookingReference, false, ['GRANTED', 'REVOKED']]]);
      // Written after the finish: plain, and read once, after the others.
      const shipmentId = beforeFinish.other[0]!.shipmentId;
      const beforeGrant = await cursorNow(db);
      await grantAccountAccess(db, t.database.dialect, key, OTHER, new Date('2026-11-22T00:00:00Z'));
      expect(await db.selectFrom('change_log').select('id').where('shipment_id', '<', 0).execute()).toEqual([]);
      const regranted = await readAll(db, savedCursor, { accountIds: [OTHER] });
      expect(kinds(regranted.slice(-1))).toEqual([[shipmentId, 'GRANTED', OTHER]]);
      expect(kinds(regranted.filter((c) => c.triggerType === 'GRANTED' || c.triggerType === 'REVOKED'))).toEqual([
        [shipmentId, 'REVOKED', OTHER],
        [shipmentId, 'GRANTED', OTHER],
      ]);
      expect(kinds(await readAll(db, beforeGrant, { accountIds: [OTHER] }))).toEqual([[shipmentId, 'GRANTED', OTHER]]);
      await expect(startRelease040(t)).rejects.toThrow(`corrupted migrations: previously executed migration ${FINISHED_MARK} is missing`);
      expect(await finishUpgrade(t.database, {})).toEqual({ status: 'nothing-to-do' });
      expect(await migrateToLatest(t.database)).toEqual([]);
    },
  );
});

describe.each(dialects)('a database this release creates on $name', ({ name, enabled }) => {
  let t: TestDatabase;
  beforeAll(async () => {
    if (enabled) t = await createTestDatabase(name);
  });
  afterAll(async () => t?.destroy());

  it.skipIf(!enabled)('is finished at once: compact writes, nothing pending, 0.4.0 refuses it', async () => {
    expect(await readUpgradeState(t.database.db)).toEqual({ writesCompact: true, pending: [], finished: true });
    expect(writesCompact(t.database.db)).toBe(true);
    await expect(startRelease040(t)).rejects.toThrow(/corrupted migrations/);
  });

  it.skipIf(!enabled)('lists instances by heartbeat with their release, and forgets one that stops', async () => {
    const heartbeat = await startHeartbeat(t.database.db, t.database.dialect, { intervalMs: 60_000 });
    expect(await listInstances(t.database.db, new Date())).toMatchObject([{ id: heartbeat.id, version: VERSION, alive: true }]);
    await heartbeat.stop();
    expect(await listInstances(t.database.db, new Date())).toEqual([]);
  });
});

describe.each(dialects)('a database migrated by an unreleased build (015-023 in kysely_migration) on $name', ({ name, enabled }) => {
  let t: TestDatabase;
  beforeAll(async () => {
    if (!enabled) return;
    t = await createTestDatabase(name, { migrateTo: '001-initial' });
    // What main before 0.5.0 did: every migration in Kysely's own table.
    const all = migrations(t.database.dialect);
    const { '024-instance-heartbeats': _later, ...before } = all;
    const { error } = await new Migrator({ db: t.database.db, provider: { getMigrations: async () => before } }).migrateToLatest();
    if (error) throw error instanceof Error ? error : new Error(String(error));
  });
  afterAll(async () => t?.destroy());

  it.skipIf(!enabled)(
    'is taken over as it is: only the new migration runs, 0.4.0 keeps refusing it, finish needs no word about 0.4.0',
    async () => {
      expect(await migrateToLatest(t.database)).toEqual(['024-instance-heartbeats']);
      expect(await migrateToLatest(t.database)).toEqual([]);
      await expect(startRelease040(t)).rejects.toThrow(/corrupted migrations/);
      expect(await finishUpgrade(t.database, { propagationMs: 0 })).toMatchObject({ status: 'finished' });
    },
  );
});
