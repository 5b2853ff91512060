/**
 * Thresholds of the exception rules (docs/architecture.md: exception rules). Defaults here; the environment
 * may override them (src/config/config.ts).
 */

export interface ExceptionThresholds {
  /** ETA_DELAY raised when the arrival moved at least this many hours. Default 12. */
  delayThresholdHours: number;
  /** ETA_DELAY becomes CRITICAL from this many hours. Default 48. */
  criticalDelayHours: number;
  /** DEMURRAGE/DETENTION_RISK WARNING this many hours before free time expires. Default 48. */
  freeTimeWarningHours: number;
  /** MISSED_CONNECTION when the outbound leaves less than this many hours after the inbound arrives. Default 0. */
  minConnectionHours: number;
}

/** docs/architecture.md, Exception rules defaults. */
export const DEFAULT_THRESHOLDS: ExceptionThresholds = {
  delayThresholdHours: 12,
  criticalDelayHours: 48,
  freeTimeWarningHours: 48,
  minConnectionHours: 0,
};
