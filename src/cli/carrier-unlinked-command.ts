import type { Database } from '../db/connect.js';
import { listUnlinkedEvents } from '../store/events/unlinked-events.js';
import { EXIT_OK, table, type CommandIo } from './client-commands.js';

/**
 * `tracking carrier unlinked [--carrier CODE]` (docs/carriers.md "Carrier onboarding"):
 * the stored events that link to no shipment yet, oldest first, with what
 * they would link by. During an onboarding, this is what customers do not
 * see yet: the shipments they name have not been loaded.
 */
export async function listUnlinkedCommand(
  database: Database,
  options: { carrier?: string; limit: number; json?: boolean },
  io: CommandIo,
): Promise<number> {
  const events = await listUnlinkedEvents(database.db, {
    ...(options.carrier !== undefined ? { carrierCode: options.carrier } : {}),
    limit: options.limit,
  });
  if (options.json) {
    io.stdout.write(`${JSON.stringify(events)}\n`);
    return EXIT_OK;
  }
  if (events.length === 0) {
    io.stdout.write('No stored event lacks its shipment.\n');
    return EXIT_OK;
  }
  io.stdout.write(
    table(
      ['CARRIER', 'EVENT_ID', 'TYPE', 'EVENT_TIME', 'STORED', 'LINKS_BY'],
      events.map((e) => [
        e.carrierCode,
        e.eventID,
        e.eventType,
        e.eventDateTime,
        e.ingestedAt,
        e.references.map((r) => `${r.kind} ${r.value}`).join(', ') || '(no reference)',
      ]),
    ),
  );
  return EXIT_OK;
}
