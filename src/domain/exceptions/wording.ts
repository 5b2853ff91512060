import type { ShipmentMaster, TransportCall } from '../types.js';
import type { Knowledge } from './rule.js';

/**
 * How exceptions name things for people: ports with their name and
 * UN/LOCODE, vessels with IMO number and voyage, times in UTC, hours rounded.
 * Wording never depends on the evaluation clock (only on event times), so an
 * unchanged exception keeps byte-identical content between evaluations.
 */

/** `2026-05-12 06:00 UTC` from a canonical ISO timestamp. */
export function formatTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** Hours as stored in Impact.delayHours: two decimals, no floating-point noise. */
export function roundHours(hours: number): number {
  const rounded = Math.round(hours * 100) / 100;
  return Object.is(rounded, -0) ? 0 : rounded;
}

/** `30 h`, `12.5 h` (one decimal at most) for an amount of hours. */
export function formatHours(hours: number): string {
  const value = Math.round(Math.abs(hours) * 10) / 10;
  return `${value} h`;
}

/** `6 h late`, `3 h early` or `on time`, for a signed delay. */
export function formatDelay(hours: number): string {
  if (Math.round(hours * 10) === 0) return 'on time';
  return hours > 0 ? `${formatHours(hours)} late` : `${formatHours(hours)} early`;
}

/** `Rotterdam (NLRTM)`, or the bare code when no name is known. */
export function portLabel(k: Knowledge, code: string | undefined): string {
  if (!code) return 'an unknown port';
  const name = k.locationName(code);
  return name ? `${name} (${code})` : code;
}

/** `MAERSK EDINBURGH (IMO 9321483) voyage 234W`; degrades gracefully when parts are missing. */
export function vesselLabel(call: TransportCall | undefined): string {
  const voyage = call?.exportVoyageNumber ?? call?.importVoyageNumber;
  const vessel = call?.vessel;
  const name = vessel
    ? `${vessel.vesselName}${vessel.vesselIMONumber ? ` (IMO ${vessel.vesselIMONumber})` : ''}`
    : `an unnamed ${call?.modeOfTransport?.toLowerCase() ?? 'vessel'}`;
  return voyage ? `${name} voyage ${voyage}` : name;
}

/** `Maersk (MAEU)`, or the SCAC alone. */
export function carrierLabel(shipment: ShipmentMaster): string {
  return shipment.carrierName ? `${shipment.carrierName} (${shipment.carrierCode})` : shipment.carrierCode;
}

/** `A`, `A and B`, `A, B and C`. */
export function listLabel(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** `container MSKU1234565` or `containers MSKU1234565 and MSKU7654328`. */
export function containersLabel(containers: readonly string[]): string {
  if (containers.length === 0) return 'the cargo';
  return `${containers.length === 1 ? 'container' : 'containers'} ${listLabel(containers)}`;
}
