/**
 * One process of the change log stress test (test/change-log.test.ts), run with `node --import tsx`: a writer
 * or a reader on DATABASE_URL. Separate processes, as instances are: on SQLite a writer holding the write lock
 * while it waits would otherwise stall every connection of the same process (better-sqlite3 waits for a lock
 * synchronously).
 *
 * writer SHIPMENT_IDS COUNT: COUNT transactions, each on a random shipment of SHIPMENT_IDS (comma-separated):
 *   lock the shipment row and move its version (so a shipment's writers take turns, as ingest's do), write one
 *   change naming `shipmentId:version` through the real outbox, wait a random time, then commit (one in ten
 *   rolls back instead). Prints `done` at the end.
 * reader CURSOR: reads pages after CURSOR for ever, waiting a little between pages; prints one JSON line per
 *   page, `{"changes":["shipmentId:version",…],"cursor":"…"}`: the page and the cursor after it together, so
 *   a line either was printed whole (processed and saved) or not at all (a reader killed mid-page).
 */
import { connectDatabase } from '../../src/db/connect.js';
import { retryTransaction } from '../../src/db/retry-transaction.js';
import { readChanges } from '../../src/store/changes/change-log.js';
import { enqueuePushTriggers } from '../../src/store/push/push-outbox.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const [role, ...args] = process.argv.slice(2);
const database = connectDatabase(process.env.DATABASE_URL, { poolSize: 2 });

class RolledBack extends Error {}

async function writer(shipmentIds: number[], count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const shipmentId = shipmentIds[Math.floor(Math.random() * shipmentIds.length)]!;
    const rollBack = Math.random() < 0.1;
    try {
      await retryTransaction(() =>
        database.db.transaction().execute(async (trx) => {
          await trx
            .updateTable('shipment')
            .set((eb) => ({ version: eb('version', '+', 1) }))
            .where('id', '=', shipmentId)
            .execute();
          const { version } = await trx.selectFrom('shipment').select('version').where('id', '=', shipmentId).executeTakeFirstOrThrow();
          const trigger = { triggerType: 'EVENT_TRIGGER' as const, eventID: `${shipmentId}:${version}`, exceptionID: null };
          await enqueuePushTriggers(trx, new Map([[shipmentId, [trigger]]]), new Date());
          // The change has its id now; it becomes visible only at the commit, after this wait.
          await sleep(Math.random() * 40);
          if (rollBack) throw new RolledBack();
        }),
      );
    } catch (err) {
      if (!(err instanceof RolledBack)) throw err;
    }
  }
  process.stdout.write('done\n');
}

async function reader(start: string): Promise<void> {
  let cursor = start;
  for (;;) {
    const page = await readChanges(database.db, { after: cursor, limit: 1 + Math.floor(Math.random() * 20) });
    cursor = page.cursor;
    process.stdout.write(`${JSON.stringify({ changes: page.changes.map((c) => c.triggeredByEvent), cursor })}\n`);
    if (!page.more) await sleep(Math.random() * 30);
  }
}

if (role === 'writer') {
  await writer(args[0]!.split(',').map(Number), Number(args[1]));
  await database.close();
} else if (role === 'reader') {
  await reader(args[0]!);
} else {
  throw new Error(`unknown role ${role}`);
}
