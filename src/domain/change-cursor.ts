/**
 * Positions in the change log and the opaque cursors that carry them (docs/architecture.md, Change log).
 *
 * A position is (seq, id): the ordering batch that numbered a committed change, then the change's id within
 * the batch. Positions grow in commit order, so "after this position" never skips a change that commits later.
 * A cursor is a position written for a client: opaque (clients must not build or compare them), versioned,
 * and the same on every instance and after any restart, since it names rows of the database, not state of a
 * process.
 */

export interface ChangePosition {
  /** The ordering batch (change_log.commit_seq). */
  seq: number;
  /** The change's id within its batch; 0 stands before every change of the batch. */
  id: number;
}

/** Before every change there ever was. */
export const ORIGIN: ChangePosition = { seq: 0, id: 0 };

/** After every change of batch `seq` (and before every change of the next). */
export function afterBatch(seq: number): ChangePosition {
  return { seq: seq + 1, id: 0 };
}

export function comparePositions(a: ChangePosition, b: ChangePosition): number {
  return a.seq !== b.seq ? a.seq - b.seq : a.id - b.id;
}

export function laterPosition(a: ChangePosition, b: ChangePosition): ChangePosition {
  return comparePositions(a, b) >= 0 ? a : b;
}

/** A cursor that is not one the service handed out (or was altered). */
export class InvalidChangeCursorError extends Error {
  override name = 'InvalidChangeCursorError';
}

/**
 * A cursor older than what the log still holds (changes after it were pruned): the reader must start over from
 * a fresh cursor and catch up some other way (a lookup), since some of what it missed is gone.
 */
export class ChangeCursorExpiredError extends Error {
  override name = 'ChangeCursorExpiredError';
}

const VERSION = 'c1';
/** Generous bound on a cursor's length, checked before decoding anything. */
const MAX_CURSOR_LENGTH = 64;
const NUMBER = /^(0|[1-9][0-9]{0,14})$/;

export function encodeCursor(position: ChangePosition): string {
  return Buffer.from(`${VERSION}.${position.seq}.${position.id}`, 'utf8').toString('base64url');
}

/** The position a cursor names; throws InvalidChangeCursorError for anything else. */
export function decodeCursor(cursor: string): ChangePosition {
  if (cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) {
    throw new InvalidChangeCursorError('not a change cursor');
  }
  const parts = Buffer.from(cursor, 'base64url').toString('utf8').split('.');
  const [version, seq, id] = parts;
  if (parts.length !== 3 || version !== VERSION || !NUMBER.test(seq ?? '') || !NUMBER.test(id ?? '')) {
    throw new InvalidChangeCursorError('not a change cursor');
  }
  const position = { seq: Number(seq), id: Number(id) };
  // One spelling per position: a cursor re-encoded differently is not one the service wrote.
  if (encodeCursor(position) !== cursor) throw new InvalidChangeCursorError('not a change cursor');
  return position;
}
