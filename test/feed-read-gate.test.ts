import { describe, expect, it } from 'vitest';
import { connectDatabase } from '../src/db/connect.js';
import { FEED_QUEUE_FACTOR, FeedBusyError, feedReadLimit, withFeedReadSlot } from '../src/store/changes/feed-read-gate.js';
import { TEST_MYSQL_URL } from './support/databases.js';

describe('the account feed read gate', () => {
  it.skipIf(!TEST_MYSQL_URL)(
    'lets a quarter of the pool read feed pages at once; the next waits for a place, in order, or is refused',
    async () => {
      const database = connectDatabase(TEST_MYSQL_URL, { poolSize: 8 });
      try {
        expect(feedReadLimit(database)).toBe(2);
        let release!: () => void;
        const held = new Promise<void>((resolve) => (release = resolve));
        const order: string[] = [];
        const page = (name: string) => async () => {
          order.push(name);
          return name;
        };
        const first = withFeedReadSlot(database, () => held.then(page('first')));
        const second = withFeedReadSlot(database, () => held.then(page('second')));
        // No place comes free within its wait: refused, and it never read.
        await expect(withFeedReadSlot(database, page('too late'), 20)).rejects.toThrow(FeedBusyError);
        // These wait; they run in arrival order once the first two give their places back.
        const third = withFeedReadSlot(database, page('third'), 10_000);
        const fourth = withFeedReadSlot(database, page('fourth'), 10_000);
        release();
        expect(await Promise.all([first, second, third, fourth])).toEqual(['first', 'second', 'third', 'fourth']);
        expect(order).toEqual(['first', 'second', 'third', 'fourth']);
        // A failed read gives its place back too.
        await expect(withFeedReadSlot(database, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
        expect(await withFeedReadSlot(database, async () => 'again')).toBe('again');
      } finally {
        await database.close();
      }
    },
  );

  it.skipIf(!TEST_MYSQL_URL)('refuses at once beyond FEED_QUEUE_FACTOR times the limit waiting', async () => {
    const database = connectDatabase(TEST_MYSQL_URL, { poolSize: 4 });
    try {
      const limit = feedReadLimit(database);
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const running = Array.from({ length: limit }, () => withFeedReadSlot(database, () => held));
      const waiting = Array.from({ length: limit * FEED_QUEUE_FACTOR }, () => withFeedReadSlot(database, async () => 'waited', 10_000));
      let read = false;
      await expect(
        withFeedReadSlot(database, async () => {
          read = true;
        }),
      ).rejects.toThrow(/being read and waiting/);
      expect(read).toBe(false);
      release();
      await Promise.all(running);
      expect(new Set(await Promise.all(waiting))).toEqual(new Set(['waited']));
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
