import type { Redis } from 'ioredis';

type Log = (level: 'debug' | 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>) => void;

/**
 * Wake-ups between processes (docs/architecture.md, Scale-out): a process that commits something for the
 * outbox or the change log (an ingest, a notification, a poller's page) publishes one message on a Redis
 * channel, and every delivery worker and change feed subscribed to it looks at once instead of at its next
 * poll. Only a shortcut: without Redis, or while Redis is away, each process still finds every change by its
 * poll (TT_DELIVERY_POLL_MS), so nothing is lost and nothing waits for Redis (a publish that cannot be sent
 * is dropped, never queued).
 */
export interface WakeChannel {
  /** Tells every subscribed process (this one included) that something was committed. */
  publish(): void;
  /** Calls `listener` on each wake-up from any process; the subscription opens on the first call. */
  subscribe(listener: () => void): void;
  close(): Promise<void>;
}

export interface WakeChannelOptions {
  /** Redis address; undefined: a channel that reaches no other process. */
  redisUrl: string | undefined;
  /** The instance group's key prefix (`tt:production`): the channel is `<prefix>:wake`. */
  keyPrefix: string;
  log: Log;
}

/** The channel of a process without Redis: publishing reaches no one, subscribers hear nothing. */
const NO_CHANNEL: WakeChannel = { publish: () => {}, subscribe: () => {}, close: () => Promise.resolve() };

export async function openWakeChannel(options: WakeChannelOptions): Promise<WakeChannel> {
  if (!options.redisUrl) return NO_CHANNEL;
  // Loaded only when configured, as for the rate limits (src/quotas/rate-limit-store.ts).
  const { Redis } = await import('ioredis');
  const channel = `${options.keyPrefix}:wake`;
  const connect = (role: string): Redis => {
    const redis = new Redis(options.redisUrl as string, {
      enableOfflineQueue: role === 'subscriber',
      maxRetriesPerRequest: 1,
      connectTimeout: 2000,
      lazyConnect: true,
      retryStrategy: (attempt) => Math.min(attempt * 200, 5000),
    });
    let down = false;
    redis.on('error', (err: Error) => {
      if (down) return;
      down = true;
      options.log('warn', `Redis for wake-ups (${role}) is unavailable; changes are found by polling until it is back`, {
        error: err.message,
      });
    });
    redis.on('ready', () => {
      if (down) options.log('info', `Redis for wake-ups (${role}) is back`);
      down = false;
    });
    return redis;
  };
  const publisher = connect('publisher');
  let subscriber: Redis | undefined;
  const listeners = new Set<() => void>();
  // A publish before the connection is up is dropped (no offline queue): wait for it, at most the connect timeout
  // (a Redis that is away then reconnects in the background; until then changes are found by polling).
  await Promise.race([publisher.connect().catch(() => {}), new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
  return {
    publish() {
      if (publisher.status !== 'ready') return;
      publisher.publish(channel, '1').catch(() => {});
    },
    subscribe(listener) {
      listeners.add(listener);
      if (subscriber) return;
      subscriber = connect('subscriber');
      subscriber.on('message', () => {
        for (const wake of listeners) wake();
      });
      // ioredis subscribes again after each reconnect (autoResubscribe).
      subscriber.subscribe(channel).catch(() => {});
    },
    async close() {
      listeners.clear();
      await Promise.all(
        [publisher, subscriber].map(async (redis) => {
          if (!redis) return;
          try {
            await redis.quit();
          } catch {
            redis.disconnect();
          }
        }),
      );
    },
  };
}
