import { sql, type Kysely } from 'kysely';
import type { DatabaseSchema } from '../../db/schema.js';
import type { ContainerMaster, TrackingEvent, TrackingException } from '../../domain/types.js';
import { byDetection } from '../../domain/exception-lifecycle.js';
import { decodeEventJson } from '../events/event-payload.js';
import { parseContainerMaster, parseException } from '../encoding/json-columns.js';

/**
 * Set-based reads of one shipment's parts. Whatever parts are asked for,
 * they come back in ONE statement (a UNION ALL of one branch per part), so a
 * full snapshot is the lookup plus one round trip, whatever the number of
 * containers, events or exceptions.
 */

export type PartName = 'containers' | 'events' | 'exceptions';

export interface LoadedParts {
  /** Characters of JSON read (an event's once decoded), a measure of the memory the parsed parts take. */
  bytes: number;
  /** In the order the bundle listed them. */
  containers: ContainerMaster[];
  /** Every stored version of every event linked to the shipment. */
  events: TrackingEvent[];
  /** Oldest detection first, then by exceptionID. */
  exceptions: TrackingException[];
}

// `part` tags each row with its branch; `ord` orders containers by position; `bin` is an event's stored payload
// (src/store/events/event-payload.ts), null in the other branches.
const CONTAINERS = 0;
const EVENTS = 1;
const EXCEPTIONS = 2;

export async function loadParts(
  db: Kysely<DatabaseSchema>,
  shipmentId: number,
  parts: ReadonlySet<PartName>,
): Promise<Partial<LoadedParts> & Pick<LoadedParts, 'bytes'>> {
  const branches = [];
  if (parts.has('containers')) {
    branches.push(
      db
        .selectFrom('shipment_container')
        .select([sql.lit(CONTAINERS).as('part'), 'position as ord', 'master_json as json', sql<Uint8Array | null>`null`.as('bin')])
        .where('shipment_id', '=', shipmentId),
    );
  }
  if (parts.has('events')) {
    branches.push(
      db
        .selectFrom('shipment_event')
        .innerJoin('event', 'event.seq', 'shipment_event.event_seq')
        .select([sql.lit(EVENTS).as('part'), sql.lit(0).as('ord'), 'event.payload_json as json', 'event.payload as bin'])
        .where('shipment_event.shipment_id', '=', shipmentId),
    );
  }
  if (parts.has('exceptions')) {
    branches.push(
      db
        .selectFrom('tracking_exception')
        .select([sql.lit(EXCEPTIONS).as('part'), sql.lit(0).as('ord'), 'body_json as json', sql<Uint8Array | null>`null`.as('bin')])
        .where('shipment_id', '=', shipmentId),
    );
  }
  const [first, ...rest] = branches;
  if (!first) return { bytes: 0 };
  const query = rest.reduce((union, branch) => union.unionAll(branch), first);
  const rows = (await query.execute()) as { part: number | string; ord: number; json: string; bin: Uint8Array | null }[];

  const out: Partial<LoadedParts> & Pick<LoadedParts, 'bytes'> = { bytes: 0 };
  if (parts.has('containers')) out.containers = [];
  if (parts.has('events')) out.events = [];
  if (parts.has('exceptions')) out.exceptions = [];
  const containerRows: { ord: number; json: string }[] = [];
  for (const row of rows) {
    // MariaDB may hand literal columns of a UNION back as strings.
    const part = Number(row.part);
    if (part === EVENTS) {
      const json = decodeEventJson({ payload: row.bin, payload_json: row.json });
      out.bytes += json.length;
      out.events?.push(JSON.parse(json) as TrackingEvent);
      continue;
    }
    out.bytes += row.json.length;
    if (part === CONTAINERS) containerRows.push(row);
    else out.exceptions?.push(parseException(row.json));
  }
  if (out.containers) {
    out.containers = containerRows.sort((a, b) => Number(a.ord) - Number(b.ord)).map((r) => parseContainerMaster(r.json));
  }
  out.exceptions?.sort(byDetection);
  return out;
}
