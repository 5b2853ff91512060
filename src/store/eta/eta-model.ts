import type { Database, Db } from '../../db/connect.js';
import { skipDuplicateKeys } from '../../db/dialect.js';
import { inTransaction, retryTransaction } from '../../db/retry-transaction.js';
import type { EtaModel } from '../../domain/eta/predictor.js';
import { compressText, decompressText } from '../encoding/snapshot-compression.js';

/**
 * The predicted arrival's model kept in the database (migration 030, docs/predicted-arrival.md): every instance
 * serves the same predictions, and a restart keeps them.
 *
 * - `eta_model` holds versions 1, 2, 3 …; training writes the next one. Readers ask for the highest version (an
 *   index-only read of the primary key) at most every few seconds and load a model only when that number moved
 *   (EtaModelCache): the model is the same bytes on every instance for a version, so a cache keyed on it is exact.
 * - `eta_training` (one row) is the training's lease and cursor. One instance trains at a time across a cluster:
 *   the lease is claimed by a conditional UPDATE that matches only a free or expired lease (never a row lock,
 *   which holds on one Galera node only; docs/architecture.md, Scale-out), and a new version is written in one
 *   transaction with an UPDATE of the lease row conditioned on still holding it: a trainer that stalled past its
 *   lease and was replaced writes nothing (LostTrainingLease), and of two writers through two Galera nodes one
 *   fails certification and retries (src/db/retry-transaction.ts), then finds the lease gone.
 */

const TRAINING_ROW = 1;
/** Versions kept besides the newest: an instance that read the highest number a moment ago still finds its row. */
const VERSIONS_KEPT = 3;

export interface StoredEtaModel {
  version: number;
  format: number;
  trainedAt: string;
  voyages: number;
  lanes: number;
  model: EtaModel;
}

/** What training says about a model it writes. */
export interface EtaModelSummary {
  trainedAt: string;
  voyages: number;
  lanes: number;
}

/** The training lost its lease (it expired and another instance took it): nothing was written. */
export class LostTrainingLease extends Error {
  constructor() {
    super('the ETA training lease was lost to another instance');
    this.name = 'LostTrainingLease';
  }
}

/** The highest stored version, or null before any training. */
export async function latestEtaModelVersion(db: Db): Promise<number | null> {
  const row = await db
    .selectFrom('eta_model')
    .select((eb) => eb.fn.max('version').as('version'))
    .executeTakeFirst();
  return row?.version === null || row?.version === undefined ? null : Number(row.version);
}

/** One stored version, or undefined when it is gone (pruned) or never was. */
export async function readEtaModel(db: Db, version: number): Promise<StoredEtaModel | undefined> {
  const row = await db.selectFrom('eta_model').selectAll().where('version', '=', version).executeTakeFirst();
  if (!row) return undefined;
  return {
    version: Number(row.version),
    format: Number(row.format),
    trainedAt: row.trained_at,
    voyages: Number(row.voyages),
    lanes: Number(row.lanes),
    model: JSON.parse(decompressText(row.model_z)) as EtaModel,
  };
}

/** The newest stored model, or undefined before any training. */
export async function readLatestEtaModel(db: Db): Promise<StoredEtaModel | undefined> {
  const version = await latestEtaModelVersion(db);
  return version === null ? undefined : readEtaModel(db, version);
}

/**
 * Claims the training lease when it is free or expired (the row made first if absent). Returns the cursor to
 * resume from (null: from the start), or undefined when another instance holds the lease.
 */
export async function claimEtaTraining(
  database: Database,
  owner: string,
  now: Date,
  leaseMs: number,
): Promise<{ cursor: string | null } | undefined> {
  const { db, dialect } = database;
  const at = now.toISOString();
  await retryTransaction(() =>
    skipDuplicateKeys(
      dialect,
      db.insertInto('eta_training').values({ id: TRAINING_ROW, lease_owner: null, lease_until: at, history_cursor: null }),
    ).execute(),
  );
  const taken = await retryTransaction(() =>
    db
      .updateTable('eta_training')
      .set({ lease_owner: owner, lease_until: new Date(now.getTime() + leaseMs).toISOString() })
      .where('id', '=', TRAINING_ROW)
      .where('lease_until', '<=', at)
      .executeTakeFirst(),
  );
  if (taken.numUpdatedRows === 0n) return undefined;
  // Read back by owner: the row is ours now, and its cursor is the one the last holder committed.
  const row = await db
    .selectFrom('eta_training')
    .select(['lease_owner', 'history_cursor'])
    .where('id', '=', TRAINING_ROW)
    .executeTakeFirstOrThrow();
  return row.lease_owner === owner ? { cursor: row.history_cursor } : undefined;
}

/** Extends a held lease; false when it was lost. */
export async function renewEtaTraining(db: Db, owner: string, now: Date, leaseMs: number): Promise<boolean> {
  const result = await retryTransaction(() =>
    db
      .updateTable('eta_training')
      .set({ lease_until: new Date(now.getTime() + leaseMs).toISOString() })
      .where('id', '=', TRAINING_ROW)
      .where('lease_owner', '=', owner)
      .where('lease_until', '>', now.toISOString())
      .executeTakeFirst(),
  );
  return result.numUpdatedRows > 0n;
}

/**
 * Writes the next version of the model and moves the cursor past the voyages it learned from, in one
 * transaction, while the lease is held (renewed by the same UPDATE); throws LostTrainingLease, writing nothing,
 * when it is not. Returns the new version. Older versions beyond the few kept are deleted.
 */
export async function commitEtaModel(
  db: Db,
  owner: string,
  input: { now: Date; leaseMs: number; cursor: string | null; model: EtaModel; summary: EtaModelSummary },
): Promise<number> {
  const bytes = compressText(JSON.stringify(input.model));
  const format = (input.model as { format?: unknown }).format;
  return inTransaction(db, async (trx) => {
    const held = await trx
      .updateTable('eta_training')
      .set({
        history_cursor: input.cursor,
        lease_until: new Date(input.now.getTime() + input.leaseMs).toISOString(),
        last_run_at: input.now.toISOString(),
        last_error: null,
      })
      .where('id', '=', TRAINING_ROW)
      .where('lease_owner', '=', owner)
      .where('lease_until', '>', input.now.toISOString())
      .executeTakeFirst();
    if (held.numUpdatedRows === 0n) throw new LostTrainingLease();
    const latest = await trx
      .selectFrom('eta_model')
      .select((eb) => eb.fn.max('version').as('version'))
      .executeTakeFirst();
    const version = Number(latest?.version ?? 0) + 1;
    await trx
      .insertInto('eta_model')
      .values({
        version,
        format: typeof format === 'number' ? format : 0,
        trained_at: input.summary.trainedAt,
        voyages: input.summary.voyages,
        lanes: input.summary.lanes,
        model_z: bytes,
        created_at: input.now.toISOString(),
      })
      .execute();
    await trx
      .deleteFrom('eta_model')
      .where('version', '<=', version - 1 - VERSIONS_KEPT)
      .execute();
    return version;
  });
}

/** Moves the cursor past a stretch of the history without arrivals (the model unchanged), while the lease is held. */
export async function advanceEtaCursor(db: Db, owner: string, input: { now: Date; leaseMs: number; cursor: string }): Promise<void> {
  const result = await retryTransaction(() =>
    db
      .updateTable('eta_training')
      .set({ history_cursor: input.cursor, lease_until: new Date(input.now.getTime() + input.leaseMs).toISOString() })
      .where('id', '=', TRAINING_ROW)
      .where('lease_owner', '=', owner)
      .where('lease_until', '>', input.now.toISOString())
      .executeTakeFirst(),
  );
  if (result.numUpdatedRows === 0n) throw new LostTrainingLease();
}

/** Frees the lease (what it learned is committed already), recording the run's error if any. */
export async function releaseEtaTraining(db: Db, owner: string, now: Date, error: string | null): Promise<void> {
  await retryTransaction(() =>
    db
      .updateTable('eta_training')
      .set({
        lease_owner: null,
        lease_until: now.toISOString(),
        last_run_at: now.toISOString(),
        ...(error === null ? {} : { last_error: error.slice(0, 500) }),
      })
      .where('id', '=', TRAINING_ROW)
      .where('lease_owner', '=', owner)
      .execute(),
  );
}

/**
 * The current model as this instance serves it: the highest version is asked for at most every `checkMs` (one
 * cheap read), and the model loaded and parsed only when that version moved. Concurrent callers share one check.
 */
export class EtaModelCache {
  private current: StoredEtaModel | undefined;
  private checkedAt = -Infinity;
  private checking: Promise<StoredEtaModel | undefined> | undefined;

  constructor(
    private readonly db: Db,
    private readonly options: { checkMs: number; now?: () => number },
  ) {}

  /** The model (undefined before any training); no read when checked within checkMs. */
  get(): StoredEtaModel | undefined | Promise<StoredEtaModel | undefined> {
    const now = (this.options.now ?? Date.now)();
    if (now - this.checkedAt < this.options.checkMs) return this.current;
    this.checking ??= this.check(now).finally(() => (this.checking = undefined));
    return this.checking;
  }

  /** Forget the last check (after this process trained, or in tests). */
  invalidate(): void {
    this.checkedAt = -Infinity;
  }

  private async check(now: number): Promise<StoredEtaModel | undefined> {
    const version = await latestEtaModelVersion(this.db);
    if (version === null) this.current = undefined;
    else if (version !== this.current?.version) {
      // Pruned between the two reads (a burst of training): the next check finds the newer one.
      this.current = (await readEtaModel(this.db, version)) ?? this.current;
    }
    this.checkedAt = now;
    return this.current;
  }
}

/** For `tracking eta status` and tests: the training row as stored. */
export async function readEtaTraining(db: Db) {
  return db.selectFrom('eta_training').selectAll().where('id', '=', TRAINING_ROW).executeTakeFirst();
}
