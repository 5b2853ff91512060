import { etaDelayRule } from './eta-delay.js';
import { demurrageRiskRule, detentionRiskRule } from './free-time.js';
import { missedConnectionRule } from './missed-connection.js';
import { rolloverRule } from './rollover.js';
import type { ExceptionCategory, ExceptionType } from '../types.js';
import { anyRule, type ExceptionRule } from './rule.js';

/** Every exception rule the engine evaluates (docs/architecture.md, Exception rules), in a fixed order. */
export const EXCEPTION_RULES: readonly ExceptionRule[] = [
  anyRule(etaDelayRule),
  anyRule(rolloverRule),
  anyRule(missedConnectionRule),
  anyRule(demurrageRiskRule),
  anyRule(detentionRiskRule),
];

/** The exceptionCategory of each exception type (spec section 2: SCHEDULE or OPERATIONAL). */
export function categoryOf(type: ExceptionType): ExceptionCategory {
  const rule = EXCEPTION_RULES.find((r) => r.type === type);
  if (!rule) throw new RangeError(`unknown exception type ${type}`);
  return rule.category;
}
