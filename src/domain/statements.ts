import { createHash } from 'node:crypto';
import type { ShipmentInput } from './bundle.js';
import type { ContainerMaster, ShipmentMaster } from './types.js';

/**
 * Shipment data is a statement as of a time (docs/architecture.md, Ingest
 * bundle): a shipment entry's `updatedDateTime`, else its bundle's
 * `generatedDateTime`, else the time the service ingests it. A statement
 * older than the one a shipment holds changes nothing, so replaying bundles
 * (whole, in part, in any order) never regresses a shipment.
 *
 * A statement without a time of its own cannot be ordered against earlier
 * ones by time: it is recognised by its content instead. Its digest is
 * recorded, and the same content stated again without a time is a replay.
 * (Stating old content anew therefore needs a time.) A time ahead of the
 * service's clock is taken as the ingestion time, so a carrier clock running
 * ahead cannot block later statements; such a statement is recorded by
 * digest too, so its replay is recognised although its clamped time is not
 * its own.
 *
 * Accounts are not part of a statement: they are grants, added whatever the
 * statement's time (never taken back by ingest: an operator revokes).
 */

/** The master data and containers a shipment entry states, without its accounts and its time. */
export function statedContent(input: ShipmentInput): { master: ShipmentMaster; containers: ContainerMaster[] } {
  const { accounts: _accounts, containers, updatedDateTime: _time, derivedBooking: _derived, ...master } = input;
  return { master, containers };
}

export interface Statement {
  /** The time the statement is taken at (canonical UTC): its own, clamped to `ingestedAt`, or `ingestedAt`. */
  statedAt: string;
  /** Its own time was given (and not clamped): it is ordered by time alone. */
  timed: boolean;
  /** Recognises the statement when it comes again (content, and its own time when it has one). */
  digest: string;
}

/** The statement a shipment entry makes, ingested at `ingestedAt` in a bundle generated at `generatedDateTime`. */
export function statementOf(input: ShipmentInput, generatedDateTime: string | undefined, ingestedAt: string): Statement {
  const own = input.updatedDateTime ?? generatedDateTime;
  const content = JSON.stringify(statedContent(input));
  const digest = createHash('sha256')
    .update(own ?? '')
    .update('\n')
    .update(content)
    .digest('hex');
  if (own === undefined) return { statedAt: ingestedAt, timed: false, digest };
  if (own > ingestedAt) return { statedAt: ingestedAt, timed: false, digest };
  return { statedAt: own, timed: true, digest };
}

/** What the shipment holds: the time of its statement (null when unknown) and whether this statement's digest was recorded. */
export interface Held {
  statedAt: string | null;
  digestSeen: boolean;
}

/**
 * Whether the statement replaces what the shipment holds. One recorded
 * before is a replay (a future-dated one is timed by the time it comes
 * again, yet still the same statement). A timed statement must be strictly
 * newer (of two with the same time the first stands, so a replay of either
 * changes nothing); one without a time of its own is taken at its ingestion.
 */
export function supersedes(statement: Statement, held: Held): boolean {
  if (held.digestSeen) return false;
  if (held.statedAt === null) return true;
  return statement.timed ? statement.statedAt > held.statedAt : statement.statedAt >= held.statedAt;
}

/** Whether the statement's digest is kept (statements without a time of their own of the whole shipment's life). */
export function recordsDigest(statement: Statement): boolean {
  return !statement.timed;
}
