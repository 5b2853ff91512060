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

/** An event left out, by its index in what the carrier sent, with its issues (paths relative to the event). */
export interface RefusedEvent {
  index: number;
  issues: BundleIssue[];
}

/**
 * Validates a page, leaving out the events that fail (a poller must not stall
 * forever on one bad event of a carrier's feed): the bundle of the valid
 * ones, the issues of the others (paths as in the page, `events[3].…`) and
 * each refused event with its own issues, which the caller reports and keeps.
 */
export function validEventsOf(
  carrierCode: string,
  events: readonly unknown[],
): { bundle: IngestBundle; rejected: BundleIssue[]; refused: RefusedEvent[] } {
  let indexes = events.map((_, i) => i);
  const refused = new Map<number, BundleIssue[]>();
  for (;;) {
    const result = carrierEventsBundle(
      carrierCode,
      indexes.map((i) => events[i]),
    );
    if (result.ok) {
      const list = [...refused.entries()].sort(([a], [b]) => a - b).map(([index, issues]) => ({ index, issues }));
      return { bundle: result.bundle, rejected: list.flatMap((r) => r.issues.map((i) => atIndex(r.index, i))), refused: list };
    }
    // The issue list stops at 50: what is left is validated again until it passes.
    const bad = new Set<number>();
    for (const issue of result.issues) {
      const match = /^events\[(\d+)\](.*)$/.exec(issue.path);
      const original = match ? indexes[Number(match[1])] : undefined;
      if (original === undefined) continue;
      bad.add(original);
      const list = refused.get(original) ?? [];
      list.push({ path: (match?.[2] ?? '').replace(/^\./, ''), message: issue.message });
      refused.set(original, list);
    }
    if (bad.size === 0) {
      // An issue of the whole page (none names an event): every event is refused with it.
      for (const i of indexes) refused.set(i, result.issues);
      const list = indexes.map((index) => ({ index, issues: result.issues }));
      return { bundle: { carrierCode, shipments: [], events: [] }, rejected: result.issues, refused: list };
    }
    indexes = indexes.filter((i) => !bad.has(i));
  }
}

function atIndex(index: number, issue: BundleIssue): BundleIssue {
  return { path: issue.path ? `events[${index}].${issue.path}` : `events[${index}]`, message: issue.message };
}

/** One line naming each issue of a refused event, as stored with it. */
export function describeIssues(issues: readonly BundleIssue[]): string {
  return issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
}
