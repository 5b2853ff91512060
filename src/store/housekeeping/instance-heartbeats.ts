import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import { upsert, type SqlDialect } from '../../db/dialect.js';
import { retryTransaction } from '../../db/retry-transaction.js';
import type { DatabaseSchema } from '../../db/schema.js';
import { VERSION } from '../../domain/release.js';
import { refreshWriteForms } from './upgrade-state.js';

/**
 * Instances' heartbeats (migration 024, docs/upgrading.md): every `tracking serve` records its release in
 * `instance_heartbeat` at start-up and every HEARTBEAT_INTERVAL_MS, reads the upgrade's state with it
 * (upgrade-state.ts), and deletes its row when it stops. An instance is alive while its last heartbeat is
 * younger than ALIVE_WITHIN_MS: six beats, so a slow database or a clock kept by NTP does not make a live
 * instance look dead, and a killed one stops counting half a minute after its last beat.
 */
export const HEARTBEAT_INTERVAL_MS = 5_000;
export const ALIVE_WITHIN_MS = 30_000;
/** Rows of instances killed without deleting theirs are pruned after a day (they stay visible until then). */
const FORGET_AFTER_MS = 24 * 3_600_000;

export interface InstanceRow {
  id: string;
  version: string;
  startedAt: string;
  lastSeenAt: string;
  alive: boolean;
}

type Db = Kysely<DatabaseSchema>;

/** Every recorded instance, newest start first, with whether it is alive at `now`. */
export async function listInstances(db: Db, now: Date): Promise<InstanceRow[]> {
  const rows = await db.selectFrom('instance_heartbeat').selectAll().orderBy('started_at', 'desc').orderBy('id').execute();
  return rows.map((r) => ({
    id: r.id,
    version: r.version,
    startedAt: r.started_at,
    lastSeenAt: r.last_seen_at,
    alive: now.getTime() - Date.parse(r.last_seen_at) < ALIVE_WITHIN_MS,
  }));
}

export async function beat(
  db: Db,
  dialect: SqlDialect,
  instance: { id: string; version: string; startedAt: string },
  now: Date,
): Promise<void> {
  const row = { id: instance.id, version: instance.version, started_at: instance.startedAt, last_seen_at: now.toISOString() };
  await retryTransaction(() =>
    upsert(dialect, db.insertInto('instance_heartbeat').values(row), 'id', ['version', 'last_seen_at']).execute(),
  );
}

export async function forgetInstance(db: Db, id: string): Promise<void> {
  await retryTransaction(() => db.deleteFrom('instance_heartbeat').where('id', '=', id).execute());
}

export interface Heartbeat {
  id: string;
  /** Stops beating and deletes the row (the instance is stopping). */
  stop(): Promise<void>;
}

/**
 * Records this instance now (so that it is listed before it answers /ready) and every interval after; each beat
 * also refreshes which forms this process writes. A failed beat is logged and the next one tries again.
 */
export async function startHeartbeat(
  db: Db,
  dialect: SqlDialect,
  options: { intervalMs?: number; log?: (level: 'warn', message: string, fields?: Record<string, unknown>) => void; version?: string } = {},
): Promise<Heartbeat> {
  const instance = {
    id: `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
    version: options.version ?? VERSION,
    startedAt: new Date().toISOString(),
  };
  const tick = async () => {
    const now = new Date();
    await beat(db, dialect, instance, now);
    await refreshWriteForms(db);
    await retryTransaction(() =>
      db
        .deleteFrom('instance_heartbeat')
        .where('last_seen_at', '<', new Date(now.getTime() - FORGET_AFTER_MS).toISOString())
        .execute(),
    );
  };
  await tick();
  let running: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    running = running
      .then(tick)
      .catch((err: unknown) => options.log?.('warn', 'instance heartbeat failed; the next one tries again', { error: String(err) }));
  }, options.intervalMs ?? HEARTBEAT_INTERVAL_MS);
  timer.unref();
  return {
    id: instance.id,
    async stop() {
      clearInterval(timer);
      await running;
      await forgetInstance(db, instance.id);
    },
  };
}

/**
 * Runs `work` while this process beats (the standalone workers: `tracking poll`, `tracking deliver`), and forgets
 * the instance when the work ends, however it ends.
 */
export async function whileBeating<T>(
  db: Db,
  dialect: SqlDialect,
  log: NonNullable<Parameters<typeof startHeartbeat>[2]>['log'],
  work: () => Promise<T>,
): Promise<T> {
  const heartbeat = await startHeartbeat(db, dialect, { log });
  try {
    return await work();
  } finally {
    await heartbeat.stop();
  }
}
