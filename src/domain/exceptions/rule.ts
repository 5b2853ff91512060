import { eventUnLocationCode } from '../milestones.js';
import type {
  ContainerMaster,
  EquipmentEvent,
  ExceptionCategory,
  ExceptionType,
  Impact,
  Location,
  ResolutionType,
  Severity,
  ShipmentMaster,
  TrackingEvent,
  TransportEvent,
} from '../types.js';
import type { ExceptionThresholds } from '../thresholds.js';

/**
 * The contract between the exception engine (which replays the facts in the
 * order they happened and cuts them into episodes) and the rules (which only
 * say what is wrong at one moment). A rule is a pure function of the facts up
 * to that moment; it keeps no state of its own, so "raised then resolved"
 * comes out of the facts and nothing else.
 */

/** The facts at one moment of the replay: the master data and the events whose fact time has come (`factTime`). */
export interface Knowledge {
  readonly shipment: ShipmentMaster;
  readonly containers: readonly ContainerMaster[];
  readonly thresholds: ExceptionThresholds;
  /** UN/LOCODE of the port of loading, when the master data names one. */
  readonly portOfLoading: string | undefined;
  /** UN/LOCODE of the port of discharge, when the master data names one. */
  readonly portOfDischarge: string | undefined;
  /** Transport events so far, in fact-time order (`byFactTime`). */
  readonly transport: readonly TransportEvent[];
  /** Equipment events of one container so far, in fact-time order. */
  equipmentOf(containerNumber: string): readonly EquipmentEvent[];
  /** Container numbers seen in known equipment events, sorted. */
  equipmentReferences(): string[];
  /** A location name for a UN/LOCODE, from the master data or any known event. */
  locationName(unLocationCode: string): string | undefined;
}

/** One problem that holds right now, for one subject (what the exception ID is derived from). */
export interface ActiveCondition<M = unknown> {
  subject: string;
  severity: Severity;
  title: string;
  description: string;
  recommendedAction: string;
  relatedEventID?: string;
  affectedContainers: string[];
  impact?: Impact;
  /** Rule-private facts remembered for the resolution (e.g. which call the container missed). */
  memo: M;
}

/**
 * How an open problem went away; asked of the rule when its condition stops
 * holding, and of the facts known now when a condition that was reported no
 * longer holds at all (a late event, corrected data: see exception-lifecycle).
 */
export interface RuleResolution {
  resolutionType: Exclude<ResolutionType, 'MANUAL_CLEAR'>;
  resolutionNote: string;
  recommendedAction: string;
  relatedEventID?: string;
  impact?: Impact;
}

export interface ExceptionRule<M = unknown> {
  type: ExceptionType;
  category: ExceptionCategory;
  /** Every condition of this rule that holds given `k`, with time-based ones judged at `clock`. */
  evaluate(k: Knowledge, clock: string): ActiveCondition<M>[];
  /**
   * Why the condition `last` (the latest content of an open exception) no
   * longer holds given `k`. EVENT_ACTUALIZED, REBOOKED or SCHEDULE_RECOVERED
   * when a fact explains it; DATA_CORRECTED when none does (the shipment's
   * data changed, e.g. a new free time or port of discharge).
   */
  resolve(k: Knowledge, clock: string, last: ActiveCondition<M>): RuleResolution;
  /**
   * For time-based rules: the earliest instant strictly after `after` at
   * which `evaluate` may change without any new event (a threshold
   * crossing), or null. The engine replays those instants up to `now`.
   */
  nextChange?(k: Knowledge, after: string): string | null;
}

/** The rules are stored heterogeneously; each rule only ever sees its own memos back. */
export function anyRule<M>(rule: ExceptionRule<M>): ExceptionRule {
  return rule as unknown as ExceptionRule;
}

/** `Knowledge` grown event by event during the replay. Callers must add events in fact-time order. */
export class KnownHistory implements Knowledge {
  readonly portOfLoading: string | undefined;
  readonly portOfDischarge: string | undefined;
  readonly transport: TransportEvent[] = [];
  private readonly equipmentByContainer = new Map<string, EquipmentEvent[]>();
  private readonly names = new Map<string, string>();

  constructor(
    readonly shipment: ShipmentMaster,
    readonly containers: readonly ContainerMaster[],
    readonly thresholds: ExceptionThresholds,
  ) {
    this.portOfLoading = shipment.portOfLoading?.unLocationCode || undefined;
    this.portOfDischarge = shipment.portOfDischarge?.unLocationCode || undefined;
    // Master data names win over event names: they are what the customer booked.
    for (const location of [shipment.portOfLoading, shipment.portOfDischarge, shipment.placeOfReceipt, shipment.placeOfDelivery]) {
      this.rememberName(location);
    }
  }

  add(event: TrackingEvent): void {
    if (event.eventType === 'TRANSPORT') {
      this.transport.push(event);
      this.rememberName(event.transportCall.location, event.transportCall.unLocationCode);
    } else if (event.eventType === 'EQUIPMENT') {
      const list = this.equipmentByContainer.get(event.equipmentReference);
      if (list) list.push(event);
      else this.equipmentByContainer.set(event.equipmentReference, [event]);
      this.rememberName(event.eventLocation, eventUnLocationCode(event));
      this.rememberName(event.transportCall?.location, event.transportCall?.unLocationCode);
    }
  }

  equipmentOf(containerNumber: string): readonly EquipmentEvent[] {
    return this.equipmentByContainer.get(containerNumber) ?? [];
  }

  equipmentReferences(): string[] {
    return [...this.equipmentByContainer.keys()].sort();
  }

  locationName(unLocationCode: string): string | undefined {
    return this.names.get(unLocationCode);
  }

  private rememberName(location: Location | undefined, code = location?.unLocationCode): void {
    const name = location?.locationName;
    if (code && name && !this.names.has(code)) this.names.set(code, name);
  }
}
