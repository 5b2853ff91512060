import { performance } from 'node:perf_hooks';
import { decodeCursor } from '../src/domain/change-cursor.js';
import { encodeFeedCursor } from '../src/domain/feed-cursor.js';
import { chunks } from '../src/store/batching/chunks.js';
import { cursorNow } from '../src/store/changes/change-log.js';
import { enqueuePushTriggers } from '../src/store/push/push-outbox.js';
import type { BenchDatabase } from './databases.js';
import { shipmentKey } from './generate.js';
import { send } from './measure.js';
import type { ServerProcess } from './processes.js';
import { restPath, type Credentials } from './scenarios.js';

/**
 * The account change feed against polling (docs/account-feed.md): `changes` changes, one per shipment, are
 * committed to the change log; one client then reads them from a saved cursor in pages of 100
 * (GET /v2/changes, following `next`), and looks up the same shipments one by one (GET /v2/shipments), both
 * sequentially at one connection, as a client following its account would. The ratio is the lookups' time
 * over the feed's (the target is at least 5).
 */

export interface FeedResult {
  changes: number;
  pages: number;
  feedSeconds: number;
  lookups: number;
  lookupSeconds: number;
  ratio: number;
}

const PAGE = 100;

export async function feedVersusLookups(
  bench: BenchDatabase,
  service: ServerProcess,
  credentials: Credentials,
  changes: number,
): Promise<FeedResult> {
  const { db } = bench.database;
  const keys = Array.from({ length: changes }, (_, i) => shipmentKey(i));
  const ids: number[] = [];
  for (const batch of chunks(keys.map((k) => k.billOfLadingNumber))) {
    const rows = await db.selectFrom('shipment').select('id').where('bill_of_lading_number', 'in', batch).execute();
    ids.push(...rows.map((r) => r.id));
  }
  if (ids.length !== changes) throw new Error(`feed bench: ${ids.length} of ${changes} shipments found`);
  const saved = encodeFeedCursor({ phase: 'changes', position: decodeCursor(await cursorNow(db)) });
  const now = new Date();
  for (const batch of chunks(ids, 1000)) {
    const triggers = new Map(batch.map((id) => [id, [{ triggerType: 'EVENT_TRIGGER' as const, eventID: null, exceptionID: null }]]));
    await db.transaction().execute((trx) => enqueuePushTriggers(trx, triggers, now));
  }
  const headers = { Authorization: `Bearer ${credentials.token}` };

  let read = 0;
  let pages = 0;
  let after = saved;
  const feedStart = performance.now();
  for (;;) {
    const response = await send(service, { method: 'GET', path: `/v2/changes?limit=${PAGE}&after=${after}`, headers });
    if (response.status !== 200) throw new Error(`feed bench: GET /v2/changes answered ${response.status}: ${await response.text()}`);
    const page = (await response.json()) as { changes: { changes: unknown[] }[]; next: string; hasMore: boolean };
    pages++;
    read += page.changes.reduce((sum, entry) => sum + entry.changes.length, 0);
    after = page.next;
    if (!page.hasMore) break;
  }
  const feedSeconds = (performance.now() - feedStart) / 1000;
  if (read !== changes) throw new Error(`feed bench: read ${read} changes, wrote ${changes}`);

  const lookupStart = performance.now();
  for (const key of keys) {
    const response = await send(service, { method: 'GET', path: restPath(key.billOfLadingNumber), headers });
    if (response.status !== 200) throw new Error(`feed bench: lookup answered ${response.status}`);
    await response.arrayBuffer();
  }
  const lookupSeconds = (performance.now() - lookupStart) / 1000;
  return { changes, pages, feedSeconds, lookups: keys.length, lookupSeconds, ratio: lookupSeconds / feedSeconds };
}
