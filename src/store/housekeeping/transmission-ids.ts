import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../../db/schema.js';

/**
 * transmissionID = `TXN-` + digits, unique across concurrent requests,
 * processes and restarts without a database write per request: each process
 * reserves a block by inserting a row into transmission_block (the
 * auto-increment id is unique across processes and survives restarts) and
 * numbers transmissions within it.
 */

/** IDs per reserved block; the number is blockId * BLOCK_SIZE + counter. */
export const BLOCK_SIZE = 1_000_000;

export interface TransmissionIds {
  next(): Promise<string>;
}

export function createTransmissionIds(db: Kysely<DatabaseSchema>, now: () => Date = () => new Date()): TransmissionIds {
  let block: number | null = null;
  let counter = 0;
  // Concurrent callers share one in-flight reservation instead of each reserving a block.
  let reserving: Promise<void> | null = null;

  async function reserve(): Promise<void> {
    const result = await db.insertInto('transmission_block').values({ reserved_at: now().toISOString() }).executeTakeFirstOrThrow();
    block = Number(result.insertId);
    counter = 0;
  }

  return {
    async next() {
      while (block === null || counter >= BLOCK_SIZE) {
        // Concurrent callers share one in-flight reservation instead of each reserving a block.
        reserving ??= reserve().finally(() => {
          reserving = null;
        });
        await reserving;
      }
      const n = BigInt(block) * BigInt(BLOCK_SIZE) + BigInt(counter++);
      return `TXN-${n.toString().padStart(12, '0')}`;
    },
  };
}
