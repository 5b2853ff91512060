/**
 * Where a problem of an EDI transaction is, and the problem itself (docs/carriers.md "EDI"): shared by the map
 * (edi-status-map.ts) and the reading of its times (edi-times.ts).
 */

/** Where a problem is: the segment's tag and its position in the transaction (ST or UNH is 1, as in X12 999 AK3 and EDIFACT CONTRL). */
export interface SegmentAt {
  tag: string;
  position: number;
}

/** A transaction (X12 ST..SE, EDIFACT UNH..UNT) that cannot be mapped, with the reason and the segment at fault. */
export class EdiProblem extends Error {
  override name = 'EdiProblem';
  constructor(
    message: string,
    readonly at: SegmentAt | null,
  ) {
    super(message);
  }
}
