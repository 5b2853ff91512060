import { describe, expect, it } from 'vitest';
import { connectDatabase } from '../src/db/connect.js';
import { FeedBusyError, feedReadLimit, withFeedReadSlot } from '../src/store/feed-read-gate.js';
import { TEST_MYSQL_URL } from './support/databases.js';

describe('the account feed read gate', () => {
  it.skipIf(!TEST_MYSQL_URL)('lets a quarter of the pool read feed pages at once and refuses the next at once', async () => {
    const database = connectDatabase(TEST_MYSQL_URL, { poolSize: 8 });
    try {
      expect(feedReadLimit(database)).toBe(2);
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const first = withFeedReadSlot(database, () => held.then(() => 'first'));
      const second = withFeedReadSlot(database, () => held.then(() => 'second'));
      // Refused without waiting for a place or a connection.
      await expect(withFeedReadSlot(database, async () => 'third')).rejects.toThrow(FeedBusyError);
      release();
      expect([await first, await second]).toEqual(['first', 'second']);
      // A failed read gives its place back too.
      await expect(withFeedReadSlot(database, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
      expect(await withFeedReadSlot(database, async () => 'again')).toBe('again');
    } finally {
      await database.close();
    }
  });

  it('does not limit SQLite, which has no pool to share', async () => {
    const database = connectDatabase('sqlite::memory:');
    try {
      expect(feedReadLimit(database)).toBe(Number.POSITIVE_INFINITY);
    } finally {
      await database.close();
    }
  });
});
