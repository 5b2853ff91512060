/**
 * The pure rules of polling a carrier's DCSA `GET /v2/events` (no I/O):
 * which address to ask, where the next page is, how far the watermark may
 * move after a page is committed, and how long to wait after a refusal.
 */

/** The first page: events created from `from` on (DCSA `eventCreatedDateTime:gte`), `limit` per page. */
export function firstPageUrl(eventsUrl: string, from: string, limit: number): string {
  const url = new URL(eventsUrl);
  // DCSA puts the operator in the parameter's name; URLSearchParams would escape that colon.
  const extra = `eventCreatedDateTime:gte=${encodeURIComponent(from)}&limit=${limit}`;
  url.search = url.search ? `${url.search}&${extra}` : `?${extra}`;
  return url.toString();
}

/**
 * The next page's address from a page's response headers, or null on the last
 * page. DCSA 2.2 names it `Next-Page` ("a link to the next page", though its
 * example is a bare cursor); later DCSA APIs send `Next-Page-Cursor`, a
 * cursor for the `cursor` query parameter. A link is followed only on the
 * events URL's own origin: the poller's credentials go nowhere else.
 */
export function nextPageUrl(eventsUrl: string, headers: { get(name: string): string | null }): string | null {
  const cursor = headers.get('next-page-cursor')?.trim();
  if (cursor) return withCursor(eventsUrl, cursor);
  const next = headers.get('next-page')?.trim();
  if (!next) return null;
  if (/^https?:\/\//i.test(next) || next.startsWith('/') || next.includes('?')) {
    const base = new URL(eventsUrl);
    const url = new URL(next, base);
    if (url.origin !== base.origin) throw new Error(`the Next-Page link leaves the events URL's origin (${url.origin})`);
    return url.toString();
  }
  return withCursor(eventsUrl, next);
}

/** The events URL with only `cursor` (a DCSA cursor carries the filters and the page size). */
function withCursor(eventsUrl: string, cursor: string): string {
  const url = new URL(eventsUrl);
  url.searchParams.set('cursor', cursor);
  return url.toString();
}

/** `watermark` minus the safety overlap, canonical UTC. */
export function pollFrom(watermark: string, overlapMs: number): string {
  return new Date(Date.parse(watermark) - overlapMs).toISOString();
}

/**
 * How far the watermark may move during one traversal of the pages.
 *
 * After a page is committed, everything on it is stored; what later pages
 * hold is unknown. When the pages come in eventCreatedDateTime order (so far),
 * every event created before the page's last one is on this page or an
 * earlier one, and the watermark may move to it: a poller killed after page N
 * resumes from there. Once the order breaks, that no longer holds, and the
 * watermark moves only when the traversal is complete, to the newest event
 * seen. Ties are safe: the next poll asks `gte`, and ingest skips stored
 * eventIDs.
 */
export class WatermarkTracker {
  #ordered = true;
  #newest: string;

  /** `start`: the stored watermark (never moved backwards). */
  constructor(private readonly start: string) {
    this.#newest = start;
  }

  /** Records a committed page's eventCreatedDateTimes (canonical UTC); returns the watermark to store now, or null. */
  committed(created: readonly string[]): string | null {
    let previous: string | null = this.#lastSeen;
    for (const time of created) {
      if (previous !== null && time < previous) this.#ordered = false;
      previous = time;
      if (time > this.#newest) this.#newest = time;
    }
    if (created.length > 0) this.#lastSeen = created[created.length - 1] ?? null;
    return this.#ordered && this.#newest > this.start ? this.#newest : null;
  }

  #lastSeen: string | null = null;

  /** The watermark once every page was committed: the newest event seen (or the start). */
  finished(): string {
    return this.#newest;
  }
}

/** Retry-After (RFC 9110: delay seconds or an HTTP date) in ms from `now`, or null when absent or unreadable. */
export function retryAfterMs(header: string | null, now: Date): number | null {
  if (header === null) return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now.getTime());
}

/** Exponential backoff: 1 s, 2 s, 4 s … at most `maxMs` (attempt 0 is the first retry). */
export function backoffMs(attempt: number, maxMs = 60_000, baseMs = 1000): number {
  return Math.min(maxMs, baseMs * 2 ** Math.min(attempt, 20));
}

/** Statuses worth asking again: the carrier is busy or broken for now, not refusing us for good. */
export function isRetryable(status: number): boolean {
  return status === 429 || status === 408 || status >= 500;
}

/**
 * When the next run starts: after the poll interval; after failed runs, the
 * interval doubling with each one in a row (at least 10 s, at most an hour),
 * and never before the carrier's Retry-After.
 */
export function nextPollDelayMs(intervalMs: number, consecutiveFailures: number, retryAfter: number | null): number {
  if (consecutiveFailures === 0) return intervalMs;
  const backoff = Math.min(3_600_000, Math.max(10_000, intervalMs) * 2 ** Math.min(consecutiveFailures - 1, 10));
  return Math.max(backoff, retryAfter ?? 0);
}

/**
 * The service's own back-off from a carrier whose calls keep failing (5xx, 408, no answer, its tries spent) with no
 * Retry-After: 10 s after the first such call, doubling with each in a row, at most an hour. Every instance
 * honours it (src/carriers/carrier-backoff.ts).
 */
export function ownBackoffMs(failuresInARow: number): number {
  return Math.min(3_600_000, 10_000 * 2 ** Math.min(Math.max(failuresInARow - 1, 0), 20));
}
