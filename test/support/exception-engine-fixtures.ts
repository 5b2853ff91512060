import { expect } from 'vitest';
import { exceptionsFromFacts } from '../../src/domain/exception-lifecycle.js';
import type { ContainerMaster, ExceptionType, ShipmentMaster, TrackingEvent, TrackingException } from '../../src/domain/types.js';
import { CONTAINERS, containerMaster, shipmentMaster, T0 } from './event-builders.js';
import type { ExceptionThresholds } from '../../src/domain/thresholds.js';

/** The defaults of `loadConfig` (docs/architecture.md, Exception rules). */
export const DEFAULT_THRESHOLDS: ExceptionThresholds = {
  delayThresholdHours: 12,
  criticalDelayHours: 48,
  freeTimeWarningHours: 48,
  minConnectionHours: 0,
};

export interface RunOptions {
  now?: string;
  shipment?: ShipmentMaster;
  containers?: ContainerMaster[];
  thresholds?: Partial<ExceptionThresholds>;
}

/**
 * The exceptions a service shows that learned `events` all at once (engine
 * and lifecycle), with the default shipment, two containers and a clock far
 * in the future.
 */
export function run(events: TrackingEvent[], options: RunOptions = {}): TrackingException[] {
  return exceptionsFromFacts({
    shipment: options.shipment ?? shipmentMaster(),
    containers: options.containers ?? [containerMaster(CONTAINERS[0]), containerMaster(CONTAINERS[1])],
    events,
    now: options.now ?? '2027-01-01T00:00:00.000Z',
    thresholds: { ...DEFAULT_THRESHOLDS, ...options.thresholds },
  });
}

/** The exceptions of one type. */
export function ofType(list: TrackingException[], type: ExceptionType): TrackingException[] {
  return list.filter((e) => e.exceptionType === type);
}

/** The single exception of one type (fails the test when there are none or several). */
export function single(list: TrackingException[], type: ExceptionType): TrackingException {
  const found = ofType(list, type);
  expect(found, `exactly one ${type} in ${JSON.stringify(list.map((e) => e.exceptionType))}`).toHaveLength(1);
  return found[0] as TrackingException;
}

/** Asserts the RESOLVED-only fields are present exactly when RESOLVED (spec section 2). */
export function expectWellFormed(e: TrackingException): void {
  const resolvedKeys = ['resolvedDateTime', 'resolutionType', 'resolutionNote'] as const;
  for (const key of resolvedKeys) {
    if (e.status === 'RESOLVED') expect(e[key], key).toBeTruthy();
    else expect(key in e, `${key} on a DETECTED exception`).toBe(false);
  }
  for (const [key, value] of Object.entries(e)) expect(value, `${key} is undefined`).not.toBeUndefined();
  expect(e.title.length).toBeGreaterThan(0);
  expect(e.description.length).toBeGreaterThan(0);
  expect(e.recommendedAction.length).toBeGreaterThan(0);
}

export { T0 };
