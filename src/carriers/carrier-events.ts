import type { BundleIssue, IngestBundle } from '../domain/bundle.js';
import { parseBundle } from '../ingest/parse-bundle.js';

/**
 * A carrier's events (a DCSA notification body, a page of GET /v2/events) as
 * an ingest bundle of events only, validated exactly as `tracking ingest`
 * validates a bundle's `events`: the same code path from here on
 * (ingestBundle).
 */

export type CarrierEventsResult = { ok: true; bundle: IngestBundle } | { ok: false; issues: BundleIssue[] };

/** Validates all or nothing; issue paths are the bundle's (`events[3].eventDateTime`). */
export function carrierEventsBundle(carrierCode: string, events: readonly unknown[]): CarrierEventsResult {
  return parseBundle({ carrierCode, events });
}

/**
 * Validates a page, leaving out the events that fail (a poller must not stall
 * forever on one bad event of a carrier's feed): the bundle of the valid
 * ones, and the issues of the others, which the caller reports.
 */
export function validEventsOf(carrierCode: string, events: readonly unknown[]): { bundle: IngestBundle; rejected: BundleIssue[] } {
  const first = carrierEventsBundle(carrierCode, events);
  if (first.ok) return { bundle: first.bundle, rejected: [] };
  const bad = new Set<number>();
  for (const issue of first.issues) {
    const index = /^events\[(\d+)\]/.exec(issue.path)?.[1];
    if (index !== undefined) bad.add(Number(index));
  }
  // The issue list stops at 50: validate the rest again until what is left passes.
  const kept = events.filter((_, i) => !bad.has(i));
  if (bad.size === 0 || kept.length === events.length)
    return { bundle: { carrierCode, shipments: [], events: [] }, rejected: first.issues };
  const rest = validEventsOf(carrierCode, kept);
  return { bundle: rest.bundle, rejected: [...first.issues, ...rest.rejected] };
}
