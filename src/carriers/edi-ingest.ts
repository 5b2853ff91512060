import { createHash } from 'node:crypto';
import type { Database } from '../db/connect.js';
import { EdiProblem, ediStatusEvents, type DcsaEventObject, type EdiFormat, type SegmentAt } from '../domain/edi-status-map.js';
import { DEFAULT_EDI_TIMES, type EdiTimes } from '../domain/edi-times.js';
import { EdiEnvelopeError, type EdiInterchange } from '../ingest/edi-interchange.js';
import { readIftsta } from '../ingest/edi-iftsta.js';
import { readX12 } from '../ingest/edi-x12.js';
import type { IngestOptions, IngestSummary } from '../ingest/ingest-bundle.js';
import { findInterchange, recordInterchange } from '../store/carriers/edi-interchanges.js';
import { keepRejectedEvents, type RejectedEventInput } from '../store/events/rejected-events.js';
import { carrierEventsBundle, describeIssues, validEventsOf } from './carrier-events.js';
import { ingestRetrying } from './ingest-retrying.js';

/**
 * A carrier's EDI status messages (X12 315, EDIFACT IFTSTA) in, through the same validated ingest as
 * its DCSA events (docs/carriers.md "EDI"): `tracking ingest --format`, the operator route and the
 * carrier's signed push all come here.
 *
 * Each transaction becomes DCSA 2.2 events (src/domain/edi-status-map.ts), which are validated as any
 * carrier's events are (carrierEventsBundle: the compiled DCSA validator). The transactions that pass
 * are ingested together in one transaction (ingestBundle: identity, milestones, exceptions, webhooks,
 * DCSA publishing); each one that does not is refused whole (no half of a transaction is taken) and
 * kept as a rejected event naming the interchange, the transaction and the segment. An interchange
 * that cannot be read at all is kept as one rejected entry and nothing of it is taken.
 *
 * The interchange is then recorded by sender and control number, so a re-sent one changes nothing. It
 * is recorded after its events commit: should the process stop in between, the re-sent interchange is
 * taken again, which stores nothing new (eventIDs are derived from content) and counts its rejected
 * transactions once more.
 */

export interface EdiRejection {
  interchange: string;
  transaction: string;
  /** The segment at fault and its position in the transaction (ST/UNH is 1); null when it is the transaction as a whole. */
  segment: string | null;
  position: number | null;
  reason: string;
}

export interface EdiIngestSummary {
  format: EdiFormat;
  interchanges: { senderId: string; controlNumber: string; alreadyReceived: boolean; transactions: number; transactionsRejected: number }[];
  transactions: number;
  transactionsRejected: number;
  eventsStored: number;
  eventsAlreadyStored: number;
  eventsUnlinked: number;
  shipmentsRefreshed: number;
  rejected: EdiRejection[];
  exceptionTransitions: IngestSummary['exceptionTransitions'];
}

export interface EdiIngestOptions extends IngestOptions {
  /** The bound of kept rejected events (TT_CARRIER_REJECTED_EVENTS_MAX). */
  rejectedEventsMax: number;
}

/** Thrown (after keeping it as rejected) when the text is no readable interchange; nothing of it is written. */
export class EdiUnreadableError extends Error {
  override name = 'EdiUnreadableError';
}

export function readInterchanges(format: EdiFormat, text: string): EdiInterchange[] {
  return format === 'x12-315' ? readX12(text) : readIftsta(text);
}

export async function ingestEdi(
  database: Database,
  input: {
    carrierCode: string;
    format: EdiFormat;
    text: string;
    /** How the carrier's times without a zone code are read (`tracking carrier formats --times`; docs/carriers.md "Times"). */
    times?: EdiTimes;
  },
  options: EdiIngestOptions,
): Promise<EdiIngestSummary> {
  const { carrierCode, format } = input;
  const times = input.times ?? DEFAULT_EDI_TIMES;
  let interchanges: EdiInterchange[];
  try {
    interchanges = readInterchanges(format, input.text);
  } catch (err) {
    if (!(err instanceof EdiEnvelopeError)) throw err;
    const json = JSON.stringify({ format, text: input.text.slice(0, 60_000) });
    await keepRejectedEvents(
      database.db,
      [
        {
          carrierCode,
          source: format,
          digest: digest(json),
          eventId: null,
          eventJson: json,
          error: `${format} interchange refused whole: ${err.message}`,
        },
      ],
      options.now(),
      options.rejectedEventsMax,
    );
    throw new EdiUnreadableError(err.message);
  }

  const summary: EdiIngestSummary = {
    format,
    interchanges: [],
    transactions: 0,
    transactionsRejected: 0,
    eventsStored: 0,
    eventsAlreadyStored: 0,
    eventsUnlinked: 0,
    shipmentsRefreshed: 0,
    rejected: [],
    exceptionTransitions: [],
  };
  const fresh: EdiInterchange[] = [];
  for (const interchange of interchanges) {
    const known = await findInterchange(database.db, interchange);
    summary.interchanges.push({
      senderId: interchange.senderId,
      controlNumber: interchange.controlNumber,
      alreadyReceived: known !== undefined,
      transactions: interchange.transactions.length,
      transactionsRejected: 0,
    });
    if (!known && !fresh.some((f) => f.senderId === interchange.senderId && f.controlNumber === interchange.controlNumber)) {
      fresh.push(interchange);
    }
  }

  // Each transaction mapped; the events of all of them validated in one pass (validEventsOf), a transaction
  // refused when any of its events is. The same event (same eventID) may come from several transactions.
  const transactions: {
    interchange: EdiInterchange;
    tx: EdiInterchange['transactions'][number];
    problem?: { reason: string; at: SegmentAt | null };
  }[] = [];
  const events = new Map<string, { event: DcsaEventObject; owners: number[] }>();
  for (const interchange of fresh) {
    for (const tx of interchange.transactions) {
      const index = transactions.length;
      const mapped = transactionEvents(carrierCode, tx.result, times);
      transactions.push({ interchange, tx, ...(Array.isArray(mapped) ? {} : { problem: mapped }) });
      if (!Array.isArray(mapped)) continue;
      for (const event of mapped) {
        const seen = events.get(event.eventID as string);
        if (seen) seen.owners.push(index);
        else events.set(event.eventID as string, { event, owners: [index] });
      }
    }
  }
  const candidates = [...events.values()];
  const checked = validEventsOf(
    carrierCode,
    candidates.map((c) => c.event),
  );
  for (const { index, issues } of checked.refused) {
    for (const owner of candidates[index]!.owners) {
      const t = transactions[owner]!;
      if (t.problem) continue;
      const at = t.tx.result.ok ? t.tx.result.status.statusAt : null;
      t.problem = { reason: `the DCSA event it maps to is invalid: ${describeIssues(issues)}`, at };
    }
  }

  const rows: RejectedEventInput[] = [];
  for (const { interchange, tx, problem } of transactions) {
    summary.transactions += 1;
    if (!problem) continue;
    const counts = summary.interchanges.find((i) => i.controlNumber === interchange.controlNumber && i.senderId === interchange.senderId)!;
    counts.transactionsRejected += 1;
    const rejected: EdiRejection = {
      interchange: interchange.controlNumber,
      transaction: tx.controlNumber,
      segment: problem.at?.tag ?? null,
      position: problem.at?.position ?? null,
      reason: problem.reason,
    };
    summary.rejected.push(rejected);
    const json = JSON.stringify({
      format,
      sender: interchange.senderId,
      interchange: interchange.controlNumber,
      transaction: tx.controlNumber,
      segments: tx.segments,
    });
    rows.push({
      carrierCode,
      source: format,
      digest: digest(json),
      eventId: null,
      eventJson: json.slice(0, 64 * 1024),
      error: describeRejection(rejected),
    });
  }
  summary.transactionsRejected = summary.rejected.length;

  // Without refusals the validated bundle is the one to ingest; with some, the events a taken transaction owns.
  let bundle = checked.refused.length === 0 && summary.transactionsRejected === 0 ? checked.bundle : null;
  if (!bundle) {
    const kept = candidates.filter((c) => c.owners.some((owner) => !transactions[owner]!.problem)).map((c) => c.event);
    const parsed = carrierEventsBundle(carrierCode, kept);
    if (!parsed.ok) throw new Error(`EDI events failed validation together: ${describeIssues(parsed.issues).slice(0, 300)}`);
    bundle = parsed.bundle;
  }
  if (bundle.events.length > 0) {
    const ingested = await ingestRetrying(database, bundle, options);
    summary.eventsStored = ingested.eventsStored;
    summary.eventsAlreadyStored = ingested.eventsAlreadyStored;
    summary.eventsUnlinked = ingested.eventsUnlinked;
    summary.shipmentsRefreshed = ingested.shipmentsRefreshed;
    summary.exceptionTransitions = ingested.exceptionTransitions;
  }
  const now = options.now();
  if (rows.length > 0) await keepRejectedEvents(database.db, rows, now, options.rejectedEventsMax);
  for (const interchange of fresh) {
    const counts = summary.interchanges.find((i) => i.controlNumber === interchange.controlNumber && i.senderId === interchange.senderId)!;
    await recordInterchange(database.db, interchange, {
      carrierCode,
      receivedAt: now.toISOString(),
      transactions: counts.transactions,
      transactionsRejected: counts.transactionsRejected,
      eventsStored: fresh.length === 1 ? summary.eventsStored : 0,
    });
  }
  return summary;
}

/** The transaction's DCSA events (validated by the caller, all at once); or why it is refused. */
function transactionEvents(
  carrierCode: string,
  result: EdiInterchange['transactions'][number]['result'],
  times: EdiTimes,
): DcsaEventObject[] | { reason: string; at: SegmentAt | null } {
  if (!result.ok) return { reason: result.problem, at: result.at };
  try {
    return ediStatusEvents(result.status, carrierCode, times);
  } catch (err) {
    if (!(err instanceof EdiProblem)) throw err;
    return { reason: err.message, at: err.at };
  }
}

export function describeRejection(r: EdiRejection): string {
  const where = r.segment ? `, segment ${r.segment} at position ${r.position}` : '';
  return `interchange ${r.interchange}, transaction ${r.transaction}${where}: ${r.reason}`;
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
