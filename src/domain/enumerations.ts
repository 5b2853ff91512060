import type { ExceptionCategory, ExceptionStatus, ExceptionType, ResolutionType, Severity } from './types.js';

/**
 * The service's own closed value sets, each value with what it means (the
 * spec's words where it has them, docs/architecture.md, Exception rules for the exception rules).
 * GraphQL and the OpenAPI document serve them as enums from here, so both
 * describe the same values the domain produces.
 */

export const TRIGGER_TYPE_LIST = {
  MANUAL_TRIGGER: 'Full current snapshot; the only value returned by the lookup in v1.',
  SCHEDULED_TRIGGER: 'Periodic refresh of a push subscription, at its scheduled interval.',
  EVENT_TRIGGER: 'A milestone newly reported or flipped to ACT (push).',
  EXCEPTION_DETECTED: 'A new exception raised (push).',
  EXCEPTION_RESOLVED: 'An exception resolved (push).',
  SHIPMENT_MERGED:
    'The shipment, created from a tracked reference standing in for its booking, took its real booking: the two are one shipment, and the former reference still finds it (push).',
  GRANTED: "The shipment was given to the subscriber's account (account feed and account-wide webhooks).",
  REVOKED: "The shipment was taken from the subscriber's account: identifiers only (account feed and account-wide webhooks).",
  PREDICTED_ARRIVAL:
    "The service's predicted arrival moved by more than the subscriber's predictedArrivalShiftHours, or first became later than the carrier's planned arrival by the subscriber's predictedLatenessHours before the carrier's own ETA did (opt-in, webhooks and live updates).",
} as const;

export const EXCEPTION_TYPE_LIST = {
  ETA_DELAY: 'The best arrival at the port of discharge is at least the delay threshold (default 12 h) after the first planned arrival.',
  ROLLOVER:
    'The vessel left the loading port without a container planned on it, or the container was re-planned on another vessel or voyage.',
  MISSED_CONNECTION: 'At a transshipment port the inbound arrival is later than the outbound departure.',
  DEMURRAGE_RISK:
    'A laden container discharged and not gated out is within the warning window (default 48 h) of its free time expiry, or past it.',
  DETENTION_RISK:
    'A container gated out at destination and not returned empty is within the warning window of its free time expiry, or past it.',
} as const satisfies Record<ExceptionType, string>;

export const EXCEPTION_CATEGORY_LIST = {
  SCHEDULE: 'Timing problems such as delays and missed connections.',
  OPERATIONAL: 'Action-required problems such as rollovers, demurrage, detention.',
} as const satisfies Record<ExceptionCategory, string>;

export const SEVERITY_LIST = {
  WARNING: 'A delay under the critical threshold (default 48 h), or free time about to expire.',
  CRITICAL: 'A delay from the critical threshold, a rollover, a missed connection, or free time expired.',
} as const satisfies Record<Severity, string>;

export const EXCEPTION_STATUS_LIST = {
  DETECTED: 'The condition holds; the exception is open.',
  RESOLVED: 'The condition no longer holds; resolvedDateTime, resolutionType and resolutionNote say when and why.',
} as const satisfies Record<ExceptionStatus, string>;

/** How an exception was resolved (docs/lookups-and-polling.md: Exceptions). */
export const RESOLUTION_TYPE_LIST = {
  SCHEDULE_RECOVERED: 'The schedule moved back: the delay is under the threshold, or the connection holds again.',
  REBOOKED: 'The container or connection was re-planned on another vessel or voyage.',
  EVENT_ACTUALIZED:
    'The awaited event actually happened (arrival, load, gate-out or empty return), or a late-reported actual shows the problem never was.',
  MANUAL_CLEAR: 'An operator cleared the exception; resolutionNote holds their note.',
  DATA_CORRECTED:
    "The shipment's data changed (e.g. a later free time, another port) and no event explains it: the condition no longer holds.",
} as const satisfies Record<ResolutionType, string>;
