import { z } from 'zod';
import type { BundleIssue, IngestBundle, ParseBundleResult, ShipmentInput } from '../domain/bundle.js';
import { IssueList, issueMessage, MAX_LISTED_ISSUES } from './bundle-issues.js';
import type { TrackingEvent } from '../domain/types.js';
import { trackingEvent } from './event-schema.js';
import { acceptEvent } from './event-validator.js';
import { carrierCode, isRecord, optional, timestamp } from './field-schemas.js';
import { shipmentInput } from './shipment-schema.js';

/**
 * Validates and normalizes an ingest bundle (docs/architecture.md, Ingest bundle). Pure: no I/O,
 * never throws on bad input, and reports every issue it finds (up to
 * MAX_LISTED_ISSUES) rather than stopping at the first, so one round of
 * fixes is usually enough.
 *
 * BundleValidator takes the bundle entry by entry, as a streaming reader
 * meets them (src/ingest/read-bundle.ts), and keeps only the normalized
 * entries, never the raw JSON. parseBundle feeds it a parsed object. Both
 * give the same result for the same bundle, whatever order its members come
 * in: finish() reports the issues in the order of the whole-bundle rules
 * (top level, carrierCode, shipments, events, repeats) with the same cap.
 */

/**
 * Top level only; shipments and events are validated one by one below, so
 * that a bad entry does not hide the issues of the others and the bundle
 * rules (duplicates) still see every good entry.
 */
const bundleShape = z.strictObject({
  carrierCode: optional(carrierCode),
  generatedDateTime: optional(timestamp),
  shipments: optional(z.array(z.unknown())),
  events: optional(z.array(z.unknown())),
});

export function parseBundle(raw: unknown): ParseBundleResult {
  if (!isRecord(raw)) return notABundleObject();
  const validator = new BundleValidator();
  for (const [key, value] of Object.entries(raw)) {
    if ((key === 'shipments' || key === 'events') && Array.isArray(value)) {
      validator.member(key, []);
      for (const entry of value) {
        if (key === 'shipments') validator.addShipment(entry);
        else validator.addEvent(entry);
      }
    } else {
      validator.member(key, value);
    }
  }
  return validator.finish();
}

/** The result for a bundle that is not a JSON object (an array, a string, ...). */
export function notABundleObject(): ParseBundleResult {
  return { ok: false, issues: [{ path: '', message: 'the bundle must be a JSON object with carrierCode, shipments and events' }] };
}

/** An entry's validation problems, by its index in its array. */
interface EntryIssues {
  index: number;
  issues: BundleIssue[];
  /** The entry alone had more issues than are ever listed. */
  more: boolean;
}

interface Parsed<T> {
  index: number;
  value: T;
}

/** The validated entries of `shipments` or `events`, and the issues of the others. */
class Entries<T> {
  count = 0;
  readonly parsed: Parsed<T>[] = [];
  readonly failed: EntryIssues[] = [];
  #issueCount = 0;

  /**
   * @param schema decides and explains: every entry `accept` does not take goes through it.
   * @param accept the fast path, when there is one: the entry, validated and normalized, or undefined.
   */
  constructor(
    readonly name: 'shipments' | 'events',
    private readonly schema: z.ZodType<T>,
    private readonly accept?: (raw: unknown) => T | undefined,
  ) {}

  add(raw: unknown): void {
    const index = this.count++;
    // Past the cap, issues of later entries are never listed (the whole-bundle
    // rules stop validating there too), so they are not even parsed.
    if (this.#issueCount >= MAX_LISTED_ISSUES) return;
    const accepted = this.accept?.(raw);
    if (accepted !== undefined) {
      this.parsed.push({ index, value: accepted });
      return;
    }
    const result = this.schema.safeParse(raw, { error: issueMessage });
    if (result.success) {
      this.parsed.push({ index, value: result.data });
      return;
    }
    const scratch = new IssueList();
    scratch.addZod(result.error.issues, [this.name, index]);
    this.failed.push({ index, issues: scratch.issues, more: scratch.result().length > scratch.issues.length });
    this.#issueCount += scratch.issues.length;
  }

  /** Adds the issues as validating the whole array in order would have, stopping where it would. */
  report(issues: IssueList): void {
    if (this.count === 0) return;
    if (issues.full) {
      issues.stopped();
      return;
    }
    for (const entry of this.failed) {
      if (issues.full) {
        issues.stopped();
        return;
      }
      for (const issue of entry.issues) issues.add(issue.path, issue.message);
      if (entry.more) issues.stopped();
      if (issues.full && entry.index < this.count - 1) {
        issues.stopped();
        return;
      }
    }
  }
}

/**
 * Validates a bundle as it streams: top-level members with member(), the
 * entries of `shipments` and `events` one by one, then finish(). For an
 * array member, call member(key, []) when it starts.
 */
export class BundleValidator {
  readonly #members: Record<string, unknown> = {};
  readonly #shipments = new Entries<ShipmentInput>('shipments', shipmentInput);
  readonly #events = new Entries<TrackingEvent>('events', trackingEvent, acceptEvent);
  #crash: unknown;

  member(key: string, value: unknown): void {
    this.#members[key] = value;
  }

  addShipment(raw: unknown): void {
    this.#guard(() => this.#shipments.add(raw));
  }

  addEvent(raw: unknown): void {
    this.#guard(() => this.#events.add(raw));
  }

  /** Entries seen so far (progress). */
  get entries(): number {
    return this.#shipments.count + this.#events.count;
  }

  finish(): ParseBundleResult {
    let result: ParseBundleResult | undefined;
    this.#guard(() => (result = this.#result()));
    if (this.#crash !== undefined || !result) {
      // Validation is pure and should not throw; if it does, it is still a rejection, not a crash.
      return { ok: false, issues: [{ path: '', message: `bundle could not be validated: ${String(this.#crash)}` }] };
    }
    return result;
  }

  #guard(step: () => void): void {
    if (this.#crash !== undefined) return;
    try {
      step();
    } catch (err) {
      this.#crash = err ?? new Error('unknown error');
    }
  }

  #result(): ParseBundleResult {
    const issues = new IssueList();
    const top = bundleShape.safeParse(this.#members, { error: issueMessage });
    if (!top.success) issues.addZod(top.error.issues, []);
    if (this.#events.count > 0 && this.#members.carrierCode == null) {
      issues.add('carrierCode', 'is required when the bundle has events: the carrier that published them');
    }
    this.#shipments.report(issues);
    this.#events.report(issues);
    const uniqueShipments = dropRepeats(
      this.#shipments.parsed,
      (s) => `${s.carrierCode} ${s.carrierBookingReference}`,
      (s, index, first) => [
        `shipments[${index}].carrierBookingReference`,
        `shipment ${s.carrierCode} ${s.carrierBookingReference} is also at shipments[${first}] with different content`,
      ],
      issues,
    );
    const uniqueEvents = dropRepeats(
      this.#events.parsed,
      (e) => e.eventID,
      (_e, index, first) => [`events[${index}].eventID`, `eventID is also used by events[${first}] with different content`],
      issues,
    );
    if (!issues.isEmpty || !top.success) return { ok: false, issues: issues.result() };
    const bundle: IngestBundle = {
      ...(top.data.carrierCode != null ? { carrierCode: top.data.carrierCode } : {}),
      ...(top.data.generatedDateTime != null ? { generatedDateTime: top.data.generatedDateTime } : {}),
      shipments: uniqueShipments,
      events: uniqueEvents,
    };
    return { ok: true, bundle };
  }
}

/**
 * Entries sharing a key: an exact repeat (same normalized content, e.g. the
 * same event sent in DCSA and in spec spelling) is dropped; a repeat with
 * different content is an issue, since which one is meant cannot be told.
 * Content is compared as JSON only when a key repeats.
 */
function dropRepeats<T>(
  entries: readonly Parsed<T>[],
  keyOf: (value: T) => string,
  conflict: (value: T, index: number, firstIndex: number) => [path: string, message: string],
  issues: IssueList,
): T[] {
  const first = new Map<string, { index: number; value: T; json?: string }>();
  const unique: T[] = [];
  for (const { index, value } of entries) {
    const key = keyOf(value);
    const seen = first.get(key);
    if (seen === undefined) {
      first.set(key, { index, value });
      unique.push(value);
      continue;
    }
    seen.json ??= JSON.stringify(seen.value);
    if (seen.json !== JSON.stringify(value)) issues.add(...conflict(value, index, seen.index));
  }
  return unique;
}
