import type { ColumnType } from 'kysely';

/**
 * Stored exceptions (docs/architecture.md, Exception rules; src/domain/exception-lifecycle.ts):
 * never deleted, only resolved. `body_json` is what clients see; the other
 * columns are what the lifecycle needs to reconcile a row with the facts.
 */
export interface TrackingExceptionTable {
  exception_id: string;
  shipment_id: number;
  exception_type: string;
  status: string;
  /** The rule's subject; '' for a row stored before subjects were kept (adopted on the next refresh). */
  subject: ColumnType<string, string | undefined, string>;
  /** 0 for the first exception of a subject, then 1, 2, ... */
  occurrence: ColumnType<number, number | undefined, number>;
  /** Fact time the row's episode started when it was stored; null on rows stored before (use detectedDateTime). */
  fact_start: string | null;
  /** Fact time of the resolution; null while DETECTED (and on rows stored before: use resolvedDateTime). */
  fact_end: string | null;
  /** 1 when resolved because the facts stopped supporting it. */
  refuted: ColumnType<number, number | undefined, number>;
  /** Raising event of the episode of the current facts the row stands for. */
  raised_by: string | null;
  /** The condition behind the served content (LifecycleRow.condition) as JSON. */
  condition_json: string | null;
  /** The served Exception object as JSON. */
  body_json: string;
  /** When the service first stored the row (knowledge time). */
  detected_at: string | null;
  /** When the service stored its resolution (knowledge time). */
  resolved_at: string | null;
  updated_at: string;
}
