import { etaDelayRule } from './eta-delay.js';
import { demurrageRiskRule, detentionRiskRule } from './free-time.js';
import { missedConnectionRule } from './missed-connection.js';
import { rolloverRule } from './rollover.js';
import { anyRule, type ExceptionRule } from './rule.js';

/** Every exception rule the engine evaluates (DESIGN section 6), in a fixed order. */
export const EXCEPTION_RULES: readonly ExceptionRule[] = [
  anyRule(etaDelayRule),
  anyRule(rolloverRule),
  anyRule(missedConnectionRule),
  anyRule(demurrageRiskRule),
  anyRule(detentionRiskRule),
];
