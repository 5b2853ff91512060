import type { ExceptionTransition } from '../exception-lifecycle.js';
import type { MilestoneChange } from '../milestone-changes.js';

/** The triggerTypes of push delivery (spec section 2). */
export const PUSH_TRIGGER_TYPES = [
  'EVENT_TRIGGER',
  'EXCEPTION_DETECTED',
  'EXCEPTION_RESOLVED',
  'SCHEDULED_TRIGGER',
  'SHIPMENT_MERGED',
] as const;
export type PushTriggerType = (typeof PUSH_TRIGGER_TYPES)[number];

/**
 * Changes of an account's access (docs/account-feed.md): the account was given a shipment (`GRANTED`), or lost
 * it (`REVOKED`). They concern one account, so only its readers (its feed, its account-wide webhooks) get them.
 */
export const ACCESS_TRIGGER_TYPES = ['GRANTED', 'REVOKED'] as const;
export type AccessTriggerType = (typeof ACCESS_TRIGGER_TYPES)[number];

/**
 * The predicted arrival's trigger (docs/push.md, Predicted arrival): opt-in only, never in a default list, with the
 * subscriber's own thresholds (src/domain/push/predicted-arrival-trigger.ts). It is not a change of the shipment
 * that every reader sees: it is written only as deliveries of the subscriptions that asked, never to the change log.
 * (At most 20 characters, as every trigger type: webhook_delivery.trigger_type is varchar(20) since migration 004.)
 */
export const PREDICTED_ARRIVAL = 'PREDICTED_ARRIVAL';
export type PredictedArrivalTriggerType = typeof PREDICTED_ARRIVAL;

/** What a change_log row records: a change of the shipment, or of an account's access to it (and what a delivery carries). */
export type ChangeTriggerType = PushTriggerType | AccessTriggerType | PredictedArrivalTriggerType;

/** The triggerTypes a webhook subscription may list (access changes only on an account-wide one). */
export const WEBHOOK_TRIGGER_TYPES = [...PUSH_TRIGGER_TYPES, ...ACCESS_TRIGGER_TYPES, PREDICTED_ARRIVAL] as const;

export function isAccessTrigger(triggerType: string): triggerType is AccessTriggerType {
  return (ACCESS_TRIGGER_TYPES as readonly string[]).includes(triggerType);
}

/**
 * The triggers a webhook subscription may list that the previous release (0.4.0, src/domain/release.ts) does not
 * know. Until `tracking upgrade finish` an instance of it may still run, and it renders a subscription, a delivery
 * and a delivery log through a TriggerType that has none of them: a subscription that names one fails to list
 * there, and its deliveries fail there (docs/upgrading.md, Webhook subscriptions during the mixed phase). So until
 * the finish a subscription may not name them (409, src/push/subscription-service.ts), and one that names no
 * triggers gets 0.4.0's defaults, which it keeps after the finish.
 */
export const NEWER_THAN_PREVIOUS_RELEASE = [
  // New in 0.5.0 (migration 031): a 0.4.0 worker fails to render its delivery, retries it and so holds the
  // subscription's queue.
  PREDICTED_ARRIVAL,
  // Changes of an account's access, new in 0.5.0 (the account feed): a 0.4.0 worker that claims a REVOKED delivery
  // renders it as the account, which no longer sees the shipment, and records it FAILED unsent.
  'GRANTED',
  'REVOKED',
  // A merge of shipments, new in 0.5.0 (migration 016): not in 0.4.0's TriggerType either.
  'SHIPMENT_MERGED',
] as const satisfies readonly ChangeTriggerType[];

export function isNewerThanPreviousRelease(triggerType: string): boolean {
  return (NEWER_THAN_PREVIOUS_RELEASE as readonly string[]).includes(triggerType);
}

/** Names as a sentence lists them: `A`, `A and B`, `A, B and C` (or with `or`). */
export function listOfNames(names: readonly string[], conjunction: 'and' | 'or' = 'and'): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} ${conjunction} ${names.at(-1)}`;
}

/** One change of a shipment that push delivery sends (docs/architecture.md, Push). */
export interface PushTrigger {
  triggerType: ChangeTriggerType;
  /** The event that caused it: the transmission's triggeredByEvent. */
  eventID: string | null;
  exceptionID: string | null;
  /** For exception triggers: the exception's type (what subscriptions filter on); absent otherwise. */
  exceptionType?: string | null;
}

/**
 * The push triggers of one refresh of one shipment, in the order they
 * happened: one EVENT_TRIGGER when milestones were newly reported or flipped
 * to ACT (several milestones in one ingest share it; it names the latest of
 * them by eventDateTime, preferring a flip to ACT), then one trigger per
 * exception detected or resolved. An update of a DETECTED exception's content
 * is not pushed: the next transition or scheduled refresh carries it.
 */
export function pushTriggers(milestones: readonly MilestoneChange[], exceptions: readonly ExceptionTransition[]): PushTrigger[] {
  const triggers: PushTrigger[] = [];
  const actuals = milestones.filter((m) => m.change === 'ACTUAL');
  const named = (actuals.length > 0 ? actuals : milestones).at(-1);
  if (named) triggers.push({ triggerType: 'EVENT_TRIGGER', eventID: named.eventID, exceptionID: null });
  for (const t of exceptions) {
    if (t.kind === 'UPDATED') continue;
    triggers.push({
      triggerType: t.kind === 'DETECTED' ? 'EXCEPTION_DETECTED' : 'EXCEPTION_RESOLVED',
      eventID: t.eventID ?? null,
      exceptionID: t.exceptionID,
      exceptionType: t.exceptionType,
    });
  }
  return triggers;
}

/** What a webhook subscription asks for beyond its shipment: trigger types, exception types, carriers (null: any). */
export interface TriggerFilter {
  triggerTypes: ReadonlySet<string>;
  exceptionTypes: ReadonlySet<string> | null;
  carrierCodes: ReadonlySet<string> | null;
}

/**
 * Whether a trigger of a shipment of `carrierCode` passes a subscription's filters: its triggerType is listed;
 * an exception trigger's type is listed (when the subscription lists exception types; other triggers pass that
 * filter); the shipment's carrier is listed (when it lists carriers).
 */
export function passesTriggerFilter(filter: TriggerFilter, trigger: PushTrigger, carrierCode: string | undefined): boolean {
  if (!filter.triggerTypes.has(trigger.triggerType)) return false;
  if (filter.carrierCodes && (carrierCode === undefined || !filter.carrierCodes.has(carrierCode))) return false;
  if (filter.exceptionTypes && trigger.exceptionID !== null) {
    if (!trigger.exceptionType || !filter.exceptionTypes.has(trigger.exceptionType)) return false;
  }
  return true;
}

/** A subscription row's filter columns (comma-separated lists; null for no filter). */
export function triggerFilterOf(row: {
  trigger_types: string;
  exception_types: string | null;
  carrier_codes: string | null;
}): TriggerFilter {
  const set = (list: string | null) => (list ? new Set(list.split(',')) : null);
  return {
    triggerTypes: new Set(row.trigger_types.split(',')),
    exceptionTypes: set(row.exception_types),
    carrierCodes: set(row.carrier_codes),
  };
}
