import { EdiProblem, type EdiFormat, type EdiStatus, type SegmentAt } from '../domain/edi-status-map.js';

/**
 * An EDI interchange as the readers give it (src/ingest/edi-x12.ts, src/ingest/edi-iftsta.ts): its
 * sender and control number (a re-sent one is recognised by them), and each transaction (X12 ST..SE,
 * EDIFACT UNH..UNT) read into an EdiStatus or refused with the reason and the segment at fault.
 */

export interface EdiInterchange {
  format: EdiFormat;
  /** ISA05:ISA06 or UNB 0004(:0007), trimmed. */
  senderId: string;
  /** ISA13 (as a number: leading zeros dropped) or UNB 0020. */
  controlNumber: string;
  transactions: EdiTransaction[];
}

export interface EdiTransaction {
  /** ST02 or UNH 0062. */
  controlNumber: string;
  /** The transaction's segments, tag first (what a rejected transaction is kept as). */
  segments: string[][];
  result: { ok: true; status: EdiStatus } | { ok: false; problem: string; at: SegmentAt | null };
}

/** The interchange as a whole cannot be read (syntax, separators, truncation, envelope counts): nothing of it is taken. */
export class EdiEnvelopeError extends Error {
  override name = 'EdiEnvelopeError';
}

/** Runs a transaction's reader: an EdiProblem refuses the transaction alone; anything else is a bug and propagates. */
export function readTransaction(
  controlNumber: string,
  segments: string[][],
  read: () => EdiStatus,
  envelopeProblem?: { problem: string; at: SegmentAt | null },
): EdiTransaction {
  if (envelopeProblem) return { controlNumber, segments, result: { ok: false, ...envelopeProblem } };
  try {
    return { controlNumber, segments, result: { ok: true, status: read() } };
  } catch (err) {
    if (!(err instanceof EdiProblem)) throw err;
    return { controlNumber, segments, result: { ok: false, problem: err.message, at: err.at } };
  }
}

/** One segment of a transaction, by position (the transaction's header is 1). */
export interface PositionedSegment {
  tag: string;
  position: number;
}
