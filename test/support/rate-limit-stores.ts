import { randomUUID } from 'node:crypto';
import { RateLimitStore } from '../../src/quotas/rate-limit-store.js';

/**
 * The stores every rate-limit test runs against, like the database dialects
 * (databases.ts): memory always, Redis when TEST_REDIS_URL is set (.ci/run
 * sets it). A store that is not configured is skipped visibly.
 */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL;

export const rateLimitStores = [
  { name: 'memory' as const, enabled: true },
  { name: 'redis' as const, enabled: Boolean(TEST_REDIS_URL) },
];

export type StoreKind = (typeof rateLimitStores)[number]['name'];

/** A key prefix of its own, so tests sharing one Redis never see each other's counters. */
export function uniquePrefix(): string {
  return `tt-test:${randomUUID()}`;
}

export type LogLine = { level: string; message: string; fields?: Record<string, unknown> };

/** A store of the kind; with Redis, under `prefix` (a new one unless given, to share counters between stores). */
export function openStore(
  kind: StoreKind,
  options: { prefix?: string; lines?: LogLine[]; redisUrl?: string } = {},
): Promise<RateLimitStore> {
  return RateLimitStore.open({
    redisUrl: kind === 'redis' ? (options.redisUrl ?? TEST_REDIS_URL) : undefined,
    keyPrefix: options.prefix ?? uniquePrefix(),
    log: (level, message, fields) => options.lines?.push({ level, message, ...(fields ? { fields } : {}) }),
    connectTimeoutMs: 1000,
  });
}
