import { bestVersion, byFactTime, eventUnLocationCode } from '../milestones.js';
import { hoursBetween } from '../timestamps.js';
import type { TransportCall, TransportEvent } from '../types.js';
import type { ActiveCondition, ExceptionRule, Knowledge, RuleResolution } from './rule.js';
import { carrierLabel, containersLabel, formatHours, formatTime, portLabel, roundHours, vesselLabel } from './wording.js';

/**
 * MISSED_CONNECTION (SCHEDULE, always CRITICAL). Subject: the transshipment
 * port's UN/LOCODE.
 *
 * A transshipment call is a port other than POL and POD where one carriage
 * (a vessel by IMO number; without a vessel, the mode and voyage) arrives and
 * another departs. Because re-planned calls stay in the history (DCSA has no
 * cancellation), the *current* inbound and outbound are chosen per port: the
 * carriage whose newest PLN/EST version was created last (ACT versions do
 * not re-select a carriage: an abandoned outbound vessel that actually
 * departs must not become the connection again). The outbound is chosen
 * among carriages other than the current inbound one.
 *
 * Holds when best inbound arrival + minConnectionHours > best outbound
 * departure. Resolves REBOOKED when the inbound or outbound carriage changed
 * since the exception was last open (the cargo was re-planned on another
 * vessel that connects), SCHEDULE_RECOVERED when the same calls moved back
 * into a feasible connection.
 *
 * Impact while open: `{field: 'inboundArrival', previousValue: the latest
 * arrival that would still connect, revisedValue: the inbound arrival,
 * delayHours: by how many hours the connection is missed}`.
 * Impact when resolved (spec: from the exception state to the recovered
 * state, delayHours the remaining delay against the original plan):
 * `field` is `outboundDeparture` when the outbound changed or moved (else
 * `inboundArrival`), previousValue the missed value, revisedValue the
 * current one, and delayHours the current outbound departure minus the
 * originally planned one (the first-created PLN departure at the port).
 */

function carriageOf(call: TransportCall): string {
  const imo = call.vessel?.vesselIMONumber || call.vessel?.vesselName;
  if (imo) return `vessel:${imo}`;
  return `${call.modeOfTransport}:${call.importVoyageNumber ?? call.exportVoyageNumber ?? ''}`;
}

/** The carriage picked as current among `events` (all ARRI or all DEPA at one port), with its best version. */
function currentCarriage(events: readonly TransportEvent[], exclude?: string): { carriage: string; best: TransportEvent } | null {
  const byCarriage = new Map<string, TransportEvent[]>();
  for (const e of events) {
    const carriage = carriageOf(e.transportCall);
    if (carriage === exclude) continue;
    const list = byCarriage.get(carriage);
    if (list) list.push(e);
    else byCarriage.set(carriage, [e]);
  }
  let chosen: { carriage: string; rank: TransportEvent; versions: TransportEvent[] } | null = null;
  for (const [carriage, versions] of byCarriage) {
    const plans = versions.filter((e) => e.eventClassifierCode !== 'ACT');
    // Versions are in fact-time order; for plans that is creation order, so the last plan is the newest.
    const rank = plans.at(-1) ?? versions.at(-1);
    if (!rank) continue;
    const rankIsPlan = rank.eventClassifierCode !== 'ACT';
    const chosenIsPlan = chosen?.rank.eventClassifierCode !== 'ACT';
    // A carriage with a plan always beats one known only from actuals.
    if (chosen === null || (rankIsPlan && !chosenIsPlan) || (rankIsPlan === chosenIsPlan && byFactTime(rank, chosen.rank) > 0)) {
      chosen = { carriage, rank, versions };
    }
  }
  const best = chosen ? bestVersion(chosen.versions) : null;
  return chosen && best ? { carriage: chosen.carriage, best } : null;
}

interface Connection {
  port: string;
  inboundCarriage: string;
  outboundCarriage: string;
  inbound: TransportEvent;
  outbound: TransportEvent;
  /** arrival + minimum connection − departure, in hours. */
  shortfallHours: number;
  /** The originally planned onward departure: first-created PLN (else any) DEPA of another carriage. */
  originalDeparture: TransportEvent;
}

function connections(k: Knowledge): Connection[] {
  const atPort = new Map<string, TransportEvent[]>();
  for (const e of k.transport) {
    const port = e.transportCall.unLocationCode;
    if (!port || port === k.portOfLoading || port === k.portOfDischarge) continue;
    const list = atPort.get(port);
    if (list) list.push(e);
    else atPort.set(port, [e]);
  }
  const out: Connection[] = [];
  for (const port of [...atPort.keys()].sort()) {
    const events = atPort.get(port) ?? [];
    const inbound = currentCarriage(events.filter((e) => e.transportEventTypeCode === 'ARRI'));
    if (!inbound) continue;
    const outbound = currentCarriage(
      events.filter((e) => e.transportEventTypeCode === 'DEPA'),
      inbound.carriage,
    );
    if (!outbound) continue;
    const departures = events.filter((e) => e.transportEventTypeCode === 'DEPA' && carriageOf(e.transportCall) !== inbound.carriage);
    const originalDeparture = departures.find((e) => e.eventClassifierCode === 'PLN') ?? departures[0] ?? outbound.best;
    out.push({
      port,
      inboundCarriage: inbound.carriage,
      outboundCarriage: outbound.carriage,
      inbound: inbound.best,
      outbound: outbound.best,
      shortfallHours: hoursBetween(outbound.best.eventDateTime, inbound.best.eventDateTime) + k.thresholds.minConnectionHours,
      originalDeparture,
    });
  }
  return out;
}

/** Containers with equipment events at the port, or else all of the shipment's. */
function containersAt(k: Knowledge, port: string): string[] {
  const all = [...new Set([...k.containers.map((c) => c.containerNumber), ...k.equipmentReferences()])].sort();
  const there = all.filter((c) => k.equipmentOf(c).some((e) => eventUnLocationCode(e) === port));
  return there.length > 0 ? there : k.containers.map((c) => c.containerNumber).sort();
}

interface ConnectionMemo {
  inboundCarriage: string;
  outboundCarriage: string;
  inboundArrival: string;
  outboundDeparture: string;
}

export const missedConnectionRule: ExceptionRule<ConnectionMemo> = {
  type: 'MISSED_CONNECTION',
  category: 'SCHEDULE',

  evaluate(k: Knowledge): ActiveCondition<ConnectionMemo>[] {
    const minHours = k.thresholds.minConnectionHours;
    return connections(k)
      .filter((c) => c.shortfallHours > 0)
      .map((c) => {
        const port = portLabel(k, c.port);
        const inVessel = vesselLabel(c.inbound.transportCall);
        const outVessel = vesselLabel(c.outbound.transportCall);
        const containers = containersAt(k, c.port);
        const gap = hoursBetween(c.outbound.eventDateTime, c.inbound.eventDateTime);
        const timing =
          gap > 0
            ? `${formatHours(gap)} after ${outVessel} departs at ${formatTime(c.outbound.eventDateTime)}`
            : `only ${formatHours(-gap)} before ${outVessel} departs at ${formatTime(c.outbound.eventDateTime)}`;
        const latest = new Date(Date.parse(c.outbound.eventDateTime) - minHours * 3_600_000).toISOString();
        const related = byFactTime(c.inbound, c.outbound) > 0 ? c.inbound : c.outbound;
        return {
          subject: c.port,
          severity: 'CRITICAL' as const,
          title: `Missed connection at ${port}`,
          description:
            `${inVessel} arrives at ${port} at ${formatTime(c.inbound.eventDateTime)}, ${timing}` +
            (minHours > 0 ? ` (minimum connection ${formatHours(minHours)}).` : '.'),
          recommendedAction:
            `Ask ${carrierLabel(k.shipment)} to rebook ${containersLabel(containers)} from ${port} on a later ` +
            `departure that connects with ${inVessel}, or to confirm that ${outVessel} will wait; ` +
            `tell the consignee about the later arrival.`,
          relatedEventID: related.eventID,
          affectedContainers: containers,
          impact: {
            field: 'inboundArrival',
            previousValue: latest,
            revisedValue: c.inbound.eventDateTime,
            delayHours: roundHours(c.shortfallHours),
          },
          memo: {
            inboundCarriage: c.inboundCarriage,
            outboundCarriage: c.outboundCarriage,
            inboundArrival: c.inbound.eventDateTime,
            outboundDeparture: c.outbound.eventDateTime,
          },
        };
      });
  },

  resolve(k: Knowledge, _clock: string, last: ActiveCondition<ConnectionMemo>): RuleResolution {
    const port = portLabel(k, last.subject);
    const now = connections(k).find((c) => c.port === last.subject);
    if (!now) {
      // Events are only ever added, so only changed master data (the port became the port of loading or discharge) gets here.
      return {
        resolutionType: 'DATA_CORRECTED',
        resolutionNote: `The shipment's data changed: ${port} is no longer a transshipment port of this shipment.`,
        recommendedAction: 'No action needed; check the corrected route.',
      };
    }
    const memo = last.memo;
    const inVessel = vesselLabel(now.inbound.transportCall);
    const outVessel = vesselLabel(now.outbound.transportCall);
    const slack = -now.shortfallHours + k.thresholds.minConnectionHours;
    const connects =
      `${inVessel} arrives at ${formatTime(now.inbound.eventDateTime)} and ${outVessel} departs at ` +
      `${formatTime(now.outbound.eventDateTime)} (${formatHours(slack)} connection).`;
    const rebooked = now.inboundCarriage !== memo.inboundCarriage || now.outboundCarriage !== memo.outboundCarriage;
    const outboundMoved = rebooked || now.outbound.eventDateTime !== memo.outboundDeparture;
    const delayHours = roundHours(hoursBetween(now.originalDeparture.eventDateTime, now.outbound.eventDateTime));
    const impact = outboundMoved
      ? {
          field: 'outboundDeparture',
          previousValue: memo.outboundDeparture,
          revisedValue: now.outbound.eventDateTime,
          delayHours,
        }
      : { field: 'inboundArrival', previousValue: memo.inboundArrival, revisedValue: now.inbound.eventDateTime, delayHours };
    const related = byFactTime(now.inbound, now.outbound) > 0 ? now.inbound : now.outbound;
    return rebooked
      ? {
          resolutionType: 'REBOOKED',
          resolutionNote: `Re-planned at ${port}: ${connects}`,
          recommendedAction: `Tell the consignee about the new connection on ${outVessel}.`,
          relatedEventID: related.eventID,
          impact,
        }
      : {
          resolutionType: 'SCHEDULE_RECOVERED',
          resolutionNote: `Connection at ${port} holds again: ${connects}`,
          recommendedAction: 'No action needed.',
          relatedEventID: related.eventID,
          impact,
        };
  },
};
