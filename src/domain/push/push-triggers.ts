import type { ExceptionTransition } from '../exception-lifecycle.js';
import type { MilestoneChange } from '../milestone-changes.js';

/** The triggerTypes of push delivery (spec section 2). */
export const PUSH_TRIGGER_TYPES = ['EVENT_TRIGGER', 'EXCEPTION_DETECTED', 'EXCEPTION_RESOLVED', 'SCHEDULED_TRIGGER'] as const;
export type PushTriggerType = (typeof PUSH_TRIGGER_TYPES)[number];

/** One change of a shipment that push delivery sends (docs/architecture.md, Push). */
export interface PushTrigger {
  triggerType: PushTriggerType;
  /** The event that caused it: the transmission's triggeredByEvent. */
  eventID: string | null;
  exceptionID: string | null;
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
    });
  }
  return triggers;
}
