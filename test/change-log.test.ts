import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangeCursorExpiredError, InvalidChangeCursorError } from '../src/domain/change-cursor.js';
import { ingestBundle } from '../src/ingest/ingest-bundle.js';
import { parseBundle } from '../src/ingest/parse-bundle.js';
import { cursorNow, MAX_EXAMINED_PER_READ, pruneChanges, readChanges } from '../src/store/changes/change-log.js';
import { enqueuePushTriggers } from '../src/store/push/push-outbox.js';
import { connectDatabase } from '../src/db/connect.js';
import { createTestDatabase, dialects, type TestDatabase } from './support/databases.js';

/**
 * The change log every cursor-keeping reader uses (issue 26): every change exactly once, in commit order per
 * shipment, from any saved cursor, across restarts and processes, even when transactions commit in another
 * order than they wrote.
 */

const ACTOR = new URL('./support/change-log-actor.ts', import.meta.url).pathname;
const SHIPMENTS = 6;
const WRITERS = 4;
const WRITES_PER_WRITER = 30;
const READERS = 3;
const RESTARTS_PER_READER = 2;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function seedShipments(t: TestDatabase, accounts: (i: number) => string[], at = new Date()): Promise<number[]> {
  const parsed = parseBundle({
    carrierCode: 'EGLV',
    shipments: Array.from({ length: SHIPMENTS }, (_, i) => ({
      carrierBookingReference: `LOG-${i}`,
      carrierCode: 'EGLV',
      portOfLoading: { unLocationCode: 'CNSHA' },
      portOfDischarge: { unLocationCode: 'NLRTM' },
      accounts: accounts(i),
    })),
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  await ingestBundle(t.database, parsed.bundle, { now: () => at });
  const rows = await t.database.db.selectFrom('shipment').select('id').orderBy('id').execute();
  return rows.map((r) => r.id);
}

/** One change of `shipmentId`, named `name`, committed now. */
async function writeChange(t: TestDatabase, shipmentId: number, name: string, at = new Date()): Promise<void> {
  await t.database.db
    .transaction()
    .execute((trx) =>
      enqueuePushTriggers(trx, new Map([[shipmentId, [{ triggerType: 'EVENT_TRIGGER', eventID: name, exceptionID: null }]]]), at),
    );
}

function actor(url: string, args: string[]): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', ACTOR, ...args], {
    env: { ...process.env, DATABASE_URL: url },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** A reader process that is killed and started again from the cursor of the last page it printed whole. */
class RestartedReader {
  readonly received: string[] = [];
  starts = 0;
  #cursor: string;
  #child: ChildProcess | null = null;
  #closed: Promise<void> = Promise.resolve();
  #stderr = '';

  constructor(
    readonly url: string,
    cursor: string,
  ) {
    this.#cursor = cursor;
  }

  start(): void {
    this.starts++;
    const child = actor(this.url, ['reader', this.#cursor]);
    this.#child = child;
    let buffered = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        const page = JSON.parse(line) as { changes: string[]; cursor: string };
        this.received.push(...page.changes);
        this.#cursor = page.cursor;
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (this.#stderr += chunk.toString()));
    // Every line the process printed has been read once its output closed: only then is its cursor the saved one.
    this.#closed = new Promise((resolve) => child.once('close', () => resolve()));
  }

  /** Killed mid-way: whatever page it had not printed whole is read again by the next start. */
  async kill(): Promise<void> {
    this.#child?.kill('SIGKILL');
    await this.#closed;
  }

  get errors(): string {
    return this.#stderr;
  }
}

describe.each(dialects)('the change log on $name', ({ name, enabled }) => {
  let t: TestDatabase;
  let shipmentIds: number[];

  beforeAll(async () => {
    if (!enabled) return;
    t = await createTestDatabase(name);
    shipmentIds = await seedShipments(t, (i) => [i % 2 === 0 ? 'acct-even' : 'acct-odd']);
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it.skipIf(!enabled)(
    'gives every reader every change exactly once, in commit order per shipment, while writers commit out of order and readers restart',
    async () => {
      const start = await cursorNow(t.database.db);
      const readers = Array.from({ length: READERS }, () => new RestartedReader(t.url, start));
      for (const r of readers) r.start();
      const writers = Array.from({ length: WRITERS }, () => actor(t.url, ['writer', shipmentIds.join(','), String(WRITES_PER_WRITER)]));
      const written = writers.map(
        (w) =>
          new Promise<void>((resolve, reject) => {
            let err = '';
            w.stderr!.on('data', (c: Buffer) => (err += c.toString()));
            w.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`writer exited ${code}: ${err}`))));
          }),
      );
      // Each reader is killed and restarted from its saved cursor while the writers write.
      const restarts = readers.map(async (r) => {
        for (let i = 0; i < RESTARTS_PER_READER; i++) {
          await sleep(1500 + Math.random() * 2500);
          await r.kill();
          r.start();
        }
      });
      await Promise.all([...written, ...restarts]);

      // The shipments' own changes: the seeding's GRANTED rows are for account readers (none here).
      const rows = await t.database.db.selectFrom('change_log').select('triggered_by_event').where('account_id', 'is', null).execute();
      const committed = rows.map((r) => r.triggered_by_event!);
      expect(committed.length).toBeGreaterThan(WRITERS * WRITES_PER_WRITER * 0.7);
      const deadline = Date.now() + 30_000;
      while (readers.some((r) => r.received.length < committed.length) && Date.now() < deadline) await sleep(100);
      await sleep(500); // a change read twice would arrive by now
      await Promise.all(readers.map((r) => r.kill()));

      for (const r of readers) {
        expect(r.errors).toBe('');
        expect(r.starts).toBe(1 + RESTARTS_PER_READER);
        // Exactly once: nothing missed, nothing twice, nothing rolled back.
        expect(new Set(r.received).size).toBe(r.received.length);
        expect([...r.received].sort()).toEqual([...committed].sort());
        // Commit order per shipment: the version each writer moved its shipment to, under the shipment's lock.
        const versions = new Map<string, number[]>();
        for (const change of r.received) {
          const [shipment, version] = change.split(':');
          versions.set(shipment!, [...(versions.get(shipment!) ?? []), Number(version)]);
        }
        for (const [shipment, seen] of versions) expect(seen, `shipment ${shipment}`).toEqual([...seen].sort((a, b) => a - b));
      }
      // One order for everyone.
      for (const r of readers.slice(1)) expect(r.received).toEqual(readers[0]!.received);
    },
    180_000,
  );

  it.skipIf(!enabled)('starts a reader at "now", and resumes one from a saved cursor', async () => {
    const [a, b] = shipmentIds as [number, number];
    await writeChange(t, a, 'before-now');
    const now = await cursorNow(t.database.db);
    expect((await readChanges(t.database.db, { after: now, limit: 10 })).changes).toEqual([]);
    await writeChange(t, a, 'first');
    await writeChange(t, b, 'second');
    await writeChange(t, a, 'third');
    const page = await readChanges(t.database.db, { after: now, limit: 2 });
    expect(page.changes.map((c) => c.triggeredByEvent)).toEqual(['first', 'second']);
    expect(page.more).toBe(true);
    // Another process, another connection: the cursor is all it needs.
    const other = connectDatabase(t.url);
    try {
      const rest = await readChanges(other.db, { after: page.cursor, limit: 2 });
      expect(rest.changes.map((c) => [c.triggeredByEvent, c.shipmentId])).toEqual([['third', a]]);
      expect(rest.more).toBe(false);
      expect((await readChanges(other.db, { after: rest.cursor, limit: 2 })).changes).toEqual([]);
      // Each change's own cursor resumes right after it.
      const again = await readChanges(other.db, { after: page.changes[0]!.cursor, limit: 10 });
      expect(again.changes.map((c) => c.triggeredByEvent)).toEqual(['second', 'third']);
    } finally {
      await other.close();
    }
  });

  it.skipIf(!enabled)('reads only the asked-for shipments or account, and moves past what does not match', async () => {
    const [even0, odd1, even2] = shipmentIds as [number, number, number];
    const from = await cursorNow(t.database.db);
    await writeChange(t, even0, 'e0');
    await writeChange(t, odd1, 'o1');
    await writeChange(t, even2, 'e2');
    const byShipment = await readChanges(t.database.db, { after: from, limit: 10, shipmentIds: [odd1] });
    expect(byShipment.changes.map((c) => c.triggeredByEvent)).toEqual(['o1']);
    const byAccount = await readChanges(t.database.db, { after: from, limit: 10, accountId: 'acct-even' });
    expect(byAccount.changes.map((c) => c.triggeredByEvent)).toEqual(['e0', 'e2']);
    expect((await readChanges(t.database.db, { after: from, limit: 10, accountId: 'acct-none' })).changes).toEqual([]);
    // Nothing matched, yet the cursor moved past everything examined: the next read starts at the head.
    const none = await readChanges(t.database.db, { after: from, limit: 10, shipmentIds: [] });
    expect(none.cursor).toBe(await cursorNow(t.database.db));
    await writeChange(t, odd1, 'o1-later');
    const later = await readChanges(t.database.db, { after: byAccount.cursor, limit: 10, accountId: 'acct-odd' });
    expect(later.changes.map((c) => c.triggeredByEvent)).toEqual(['o1-later']);
  });

  it.skipIf(!enabled)(
    'examines a bounded window per read: a reader that sees few changes pages past the rest and gets its own once, in order',
    async () => {
      const [even0, odd1] = shipmentIds as [number, number];
      const db = t.database.db;
      const from = await cursorNow(db);
      await writeChange(t, odd1, 'odd-first');
      // More than two windows of changes acct-odd does not see, written in bulk (the ordering numbers them).
      const createdAt = new Date().toISOString();
      const others = Array.from({ length: 2 * MAX_EXAMINED_PER_READ + 10 }, (_, i) => ({
        shipment_id: even0,
        trigger_type: 'EVENT_TRIGGER',
        triggered_by_event: `even-${i}`,
        exception_id: null,
        created_at: createdAt,
        account_id: null,
      }));
      for (let at = 0; at < others.length; at += 500)
        await db
          .insertInto('change_log')
          .values(others.slice(at, at + 500))
          .execute();
      await writeChange(t, odd1, 'odd-last');
      const seen: string[] = [];
      const pages: { size: number; more: boolean }[] = [];
      let cursor = from;
      for (let i = 0; i < 10; i++) {
        const page = await readChanges(db, { after: cursor, limit: 5, accountId: 'acct-odd' });
        seen.push(...page.changes.map((c) => c.triggeredByEvent as string));
        pages.push({ size: page.changes.length, more: page.more });
        cursor = page.cursor;
        if (!page.more) break;
      }
      expect(seen).toEqual(['odd-first', 'odd-last']);
      // Not full, yet more follows: the window ended before the head (an empty page among them), then caught up.
      expect(pages.length).toBeGreaterThanOrEqual(3);
      expect(pages.slice(0, -1).every((p) => p.more && p.size < 5)).toBe(true);
      expect(pages.some((p) => p.size === 0)).toBe(true);
      expect(pages.at(-1)?.more).toBe(false);
      expect(cursor).toBe(await cursorNow(db));
    },
    120_000,
  );

  it.skipIf(!enabled)('refuses a cursor it did not hand out', async () => {
    const db = t.database.db;
    const now = await cursorNow(db);
    for (const bad of ['', 'x', 'not a cursor', `${now}A`, Buffer.from('c1.1.x').toString('base64url'), 'a'.repeat(100)]) {
      await expect(readChanges(db, { after: bad, limit: 1 }), bad).rejects.toThrow(InvalidChangeCursorError);
    }
    // A position past the head: not one this database handed out.
    const future = Buffer.from('c1.999999.0').toString('base64url');
    await expect(readChanges(db, { after: future, limit: 1 })).rejects.toThrow(InvalidChangeCursorError);
  });

  it.skipIf(!enabled)('refuses a cursor older than what it keeps, once older changes were pruned', async () => {
    const fresh = await createTestDatabase(name);
    try {
      const db = fresh.database.db;
      // Seeded (and granted: GRANTED changes) before the old changes, so their batch is old too.
      const [shipmentId] = await seedShipments(fresh, () => ['acct-prune'], new Date('2019-12-31T00:00:00Z'));
      const old = await cursorNow(db);
      await writeChange(fresh, shipmentId!, 'old-1', new Date('2020-01-01T00:00:00Z'));
      await writeChange(fresh, shipmentId!, 'old-2', new Date('2020-01-02T00:00:00Z'));
      const kept = await cursorNow(db);
      await writeChange(fresh, shipmentId!, 'young');
      expect(await pruneChanges(db, new Date(Date.now() - 3_600_000))).toBe(2 + SHIPMENTS);
      await expect(readChanges(db, { after: old, limit: 10 })).rejects.toThrow(ChangeCursorExpiredError);
      expect((await readChanges(db, { after: kept, limit: 10 })).changes.map((c) => c.triggeredByEvent)).toEqual(['young']);
      // From the start: what is kept.
      expect((await readChanges(db, { after: null, limit: 10 })).changes.map((c) => c.triggeredByEvent)).toEqual(['young']);
    } finally {
      await fresh.destroy();
    }
  });

  // Only MySQL/MariaDB let two writers hold open transactions at once; SQLite's single writer cannot interleave.
  it.skipIf(!enabled || name !== 'mysql')('reads a change whose transaction committed after a later one was read', async () => {
    const db = t.database.db;
    const from = await cursorNow(db);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let written!: () => void;
    const wrote = new Promise<void>((resolve) => (written = resolve));
    const slow = db.transaction().execute(async (trx) => {
      await enqueuePushTriggers(
        trx,
        new Map([[shipmentIds[1]!, [{ triggerType: 'EVENT_TRIGGER', eventID: 'slow', exceptionID: null }]]]),
        new Date(),
      );
      written();
      await held;
    });
    await wrote;
    await writeChange(t, shipmentIds[2]!, 'fast');
    const first = await readChanges(db, { after: from, limit: 10 });
    expect(first.changes.map((c) => c.triggeredByEvent)).toEqual(['fast']);
    release();
    await slow;
    const second = await readChanges(db, { after: first.cursor, limit: 10 });
    expect(second.changes.map((c) => c.triggeredByEvent)).toEqual(['slow']);
  });
});
