import type { ChangePosition } from './change-cursor.js';

/**
 * The cursors of an account's change feed and of its shipments connection (docs/account-feed.md): opaque to
 * clients, versioned, and the same on every instance and after any restart, since they name database rows
 * (change-log positions, shipment ids), not state of a process.
 *
 * A feed read without a cursor first lists every shipment the account sees, in id order (the listing), then
 * follows the change log from where it stood when the listing began: so a listing cursor carries both the
 * change-log position the listing started at and the last shipment it listed; a changes cursor carries a
 * change-log position.
 */

export type FeedCursor =
  { phase: 'listing'; start: ChangePosition; lastShipmentId: number } | { phase: 'changes'; position: ChangePosition };

/** A cursor that is not one the service handed out (or was altered). */
export class InvalidFeedCursorError extends Error {
  override name = 'InvalidFeedCursorError';
}

const FEED_VERSION = 'f1';
const SHIPMENTS_VERSION = 's1';
const MAX_CURSOR_LENGTH = 96;
const NUMBER = /^(0|[1-9][0-9]{0,14})$/;

const encode = (parts: (string | number)[]) => Buffer.from(parts.join('.'), 'utf8').toString('base64url');

function decodeParts(cursor: string, version: string): number[] {
  if (cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) {
    throw new InvalidFeedCursorError('not a cursor of this service');
  }
  const [v, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('.');
  if (v !== version || rest.length === 0) throw new InvalidFeedCursorError('not a cursor of this service');
  return rest.map((part, i) => {
    // The phase letter of a feed cursor is the one non-number part.
    if (i === 0 && version === FEED_VERSION) return part === 'L' ? 0 : part === 'C' ? 1 : Number.NaN;
    return NUMBER.test(part) ? Number(part) : Number.NaN;
  });
}

export function encodeFeedCursor(cursor: FeedCursor): string {
  return cursor.phase === 'listing'
    ? encode([FEED_VERSION, 'L', cursor.start.seq, cursor.start.id, cursor.lastShipmentId])
    : encode([FEED_VERSION, 'C', cursor.position.seq, cursor.position.id]);
}

/** What a feed cursor names; throws InvalidFeedCursorError for anything else. */
export function decodeFeedCursor(cursor: string): FeedCursor {
  const parts = decodeParts(cursor, FEED_VERSION);
  if (parts.some((p) => Number.isNaN(p))) throw new InvalidFeedCursorError('not a cursor of this service');
  const [phase, seq, id, last] = parts as [number, number, number, number | undefined];
  let decoded: FeedCursor;
  if (phase === 0 && parts.length === 4) decoded = { phase: 'listing', start: { seq, id }, lastShipmentId: last as number };
  else if (phase === 1 && parts.length === 3) decoded = { phase: 'changes', position: { seq, id } };
  else throw new InvalidFeedCursorError('not a cursor of this service');
  // One spelling per cursor: one re-encoded differently is not one the service wrote.
  if (encodeFeedCursor(decoded) !== cursor) throw new InvalidFeedCursorError('not a cursor of this service');
  return decoded;
}

/** A shipments-connection cursor: after this shipment id. */
export function encodeShipmentCursor(shipmentId: number): string {
  return encode([SHIPMENTS_VERSION, shipmentId]);
}

export function decodeShipmentCursor(cursor: string): number {
  const parts = decodeParts(cursor, SHIPMENTS_VERSION);
  const id = parts[0];
  if (parts.length !== 1 || id === undefined || Number.isNaN(id) || encodeShipmentCursor(id) !== cursor) {
    throw new InvalidFeedCursorError('not a cursor of this service');
  }
  return id;
}
