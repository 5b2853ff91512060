import type { Config } from '../config/config.js';
import type { Database } from '../db/connect.js';
import { replayRejectedEvents } from '../carriers/rejected-events.js';
import { listRejectedEvents } from '../store/events/rejected-events.js';
import { EXIT_OK, table, type CommandIo } from './client-commands.js';

/**
 * `tracking carrier rejected list|replay` (docs/carriers.md "Carrier onboarding"):
 * events a poll or a carrier notification refused, kept with their error,
 * and their replay once the cause is fixed (a replay that still fails keeps
 * them, with the error of now).
 */

export async function listRejectedCommand(
  database: Database,
  options: { carrier?: string; limit: number; json?: boolean },
  io: CommandIo,
): Promise<number> {
  const events = await listRejectedEvents(database.db, {
    ...(options.carrier !== undefined ? { carrierCode: options.carrier } : {}),
    limit: options.limit,
  });
  if (options.json) {
    io.stdout.write(`${JSON.stringify(events.map((e) => ({ ...e, event: parseOrText(e.event) })))}\n`);
    return EXIT_OK;
  }
  if (events.length === 0) {
    io.stdout.write('No rejected carrier events are kept.\n');
    return EXIT_OK;
  }
  io.stdout.write(
    table(
      ['ID', 'CARRIER', 'SOURCE', 'EVENT_ID', 'FIRST_REJECTED', 'TIMES', 'ERROR'],
      events.map((e) => [
        String(e.id),
        e.carrierCode,
        e.source,
        e.eventID ?? '',
        e.firstRejectedAt,
        String(e.timesRejected),
        e.error.length > 100 ? `${e.error.slice(0, 99)}…` : e.error,
      ]),
    ),
  );
  return EXIT_OK;
}

/** Exit 0 when every event looked at was ingested, 1 when some are still refused (kept). */
export async function replayRejectedCommand(
  database: Database,
  config: Config,
  options: { carrier?: string; id?: number[]; limit: number },
  io: CommandIo & { now: () => Date },
): Promise<number> {
  const result = await replayRejectedEvents(
    database,
    {
      ...(options.carrier !== undefined ? { carrierCode: options.carrier } : {}),
      ...(options.id !== undefined ? { ids: options.id } : {}),
      limit: options.limit,
    },
    { now: io.now, thresholds: config.thresholds },
  );
  io.stdout.write(`${JSON.stringify(result)}\n`);
  return result.stillRejected > 0 ? 1 : EXIT_OK;
}

function parseOrText(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
}
