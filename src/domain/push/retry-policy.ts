/**
 * When a failed webhook delivery is tried again (docs/architecture.md, Push):
 * exponential backoff with jitter, honouring the receiver's Retry-After,
 * until `retryPeriodMs` after the delivery was enqueued; then it is given up
 * (FAILED, visible in the delivery log). Pure: the random draw is injected.
 */
export interface RetryPolicy {
  /** Delay before the first retry, in ms; doubled for each further attempt. */
  baseDelayMs: number;
  /** Upper bound of one delay, in ms. */
  maxDelayMs: number;
  /** How long after enqueueing a delivery is still tried, in ms. */
  retryPeriodMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  baseDelayMs: 5_000,
  maxDelayMs: 60 * 60_000,
  retryPeriodMs: 24 * 60 * 60_000,
};

/**
 * The time of the next attempt after `attempts` failed ones, or null to give
 * up. The delay is drawn between half and all of the exponential step (so
 * receivers that failed together are not hit together again), and is never
 * shorter than the receiver's Retry-After.
 */
export function nextAttemptAt(
  policy: RetryPolicy,
  input: { attempts: number; now: number; enqueuedAt: number; retryAfterMs?: number | undefined },
  random: () => number = Math.random,
): number | null {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, input.attempts - 1));
  const delay = Math.max(step / 2 + (random() * step) / 2, input.retryAfterMs ?? 0);
  const at = input.now + delay;
  return at > input.enqueuedAt + policy.retryPeriodMs ? null : at;
}

/** Retry-After (seconds or an HTTP date) in ms from `now`; undefined when absent or malformed. */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The transmissionID of a delivery: `TXN-9` and its outbox id on 17 digits.
 * Stable across retries without a write (receivers de-duplicate on it), and
 * apart from lookup transmissionIDs, which are reserved in blocks of a million
 * and would need 9 * 10^11 blocks to reach this range.
 */
export function deliveryTransmissionId(outboxId: number): string {
  return `TXN-9${String(outboxId).padStart(17, '0')}`;
}
