import { z } from 'zod';
import type { IngestBundle, ParseBundleResult } from './bundle.js';
import { IssueList, issueMessage } from './bundle-issues.js';
import { trackingEvent } from './event-schema.js';
import { carrierCode, isRecord, optional } from './field-schemas.js';
import { shipmentInput } from './shipment-schema.js';

/**
 * Validates and normalizes an ingest bundle (DESIGN section 4). Pure: no I/O,
 * never throws on bad input, and reports every issue it finds (up to
 * MAX_LISTED_ISSUES) rather than stopping at the first, so one round of
 * fixes is usually enough.
 */

/**
 * Top level only; shipments and events are validated one by one below, so
 * that a bad entry does not hide the issues of the others and the bundle
 * rules (duplicates) still see every good entry.
 */
const bundleShape = z.strictObject({
  carrierCode: optional(carrierCode),
  shipments: optional(z.array(z.unknown())),
  events: optional(z.array(z.unknown())),
});

export function parseBundle(raw: unknown): ParseBundleResult {
  const issues = new IssueList();
  try {
    const bundle = validate(raw, issues);
    return issues.isEmpty && bundle ? { ok: true, bundle } : { ok: false, issues: issues.result() };
  } catch (err) {
    // Validation is pure and should not throw; if it does, it is still a rejection, not a crash.
    return { ok: false, issues: [{ path: '', message: `bundle could not be validated: ${String(err)}` }] };
  }
}

function validate(raw: unknown, issues: IssueList): IngestBundle | null {
  if (!isRecord(raw)) {
    issues.add('', 'the bundle must be a JSON object with carrierCode, shipments and events');
    return null;
  }
  const top = bundleShape.safeParse(raw, { error: issueMessage });
  if (!top.success) issues.addZod(top.error.issues, []);

  const rawShipments = Array.isArray(raw.shipments) ? raw.shipments : [];
  const rawEvents = Array.isArray(raw.events) ? raw.events : [];
  if (rawEvents.length > 0 && raw.carrierCode == null) {
    issues.add('carrierCode', 'is required when the bundle has events: the carrier that published them');
  }

  const shipments = parseEach(rawShipments, 'shipments', shipmentInput, issues);
  const events = parseEach(rawEvents, 'events', trackingEvent, issues);
  const uniqueShipments = dropRepeats(
    shipments,
    (s) => `${s.carrierCode} ${s.carrierBookingReference}`,
    (s, index, first) => [
      `shipments[${index}].carrierBookingReference`,
      `shipment ${s.carrierCode} ${s.carrierBookingReference} is also at shipments[${first}] with different content`,
    ],
    issues,
  );
  const uniqueEvents = dropRepeats(
    events,
    (e) => e.eventID,
    (_e, index, first) => [`events[${index}].eventID`, `eventID is also used by events[${first}] with different content`],
    issues,
  );
  if (!issues.isEmpty || !top.success) return null;
  return {
    ...(top.data.carrierCode != null ? { carrierCode: top.data.carrierCode } : {}),
    shipments: uniqueShipments,
    events: uniqueEvents,
  };
}

interface Parsed<T> {
  index: number;
  value: T;
}

/** Parses each entry with `schema`, adding issues under `name[index]`; returns the entries that passed. */
function parseEach<T>(entries: readonly unknown[], name: string, schema: z.ZodType<T>, issues: IssueList): Parsed<T>[] {
  const parsed: Parsed<T>[] = [];
  for (let index = 0; index < entries.length; index++) {
    if (issues.full) {
      issues.stopped();
      break;
    }
    const result = schema.safeParse(entries[index], { error: issueMessage });
    if (result.success) parsed.push({ index, value: result.data });
    else issues.addZod(result.error.issues, [name, index]);
  }
  return parsed;
}

/**
 * Entries sharing a key: an exact repeat (same normalized content, e.g. the
 * same event sent in DCSA and in spec spelling) is dropped; a repeat with
 * different content is an issue, since which one is meant cannot be told.
 */
function dropRepeats<T>(
  entries: readonly Parsed<T>[],
  keyOf: (value: T) => string,
  conflict: (value: T, index: number, firstIndex: number) => [path: string, message: string],
  issues: IssueList,
): T[] {
  const first = new Map<string, { index: number; json: string }>();
  const unique: T[] = [];
  for (const { index, value } of entries) {
    const key = keyOf(value);
    const json = JSON.stringify(value);
    const seen = first.get(key);
    if (seen === undefined) {
      first.set(key, { index, json });
      unique.push(value);
    } else if (seen.json !== json) {
      issues.add(...conflict(value, index, seen.index));
    }
  }
  return unique;
}
