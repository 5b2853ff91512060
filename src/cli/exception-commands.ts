import { parseArgs } from 'node:util';
import type { Config } from '../config/config.js';
import type { Database } from '../db/connect.js';
import { clearException } from '../store/exception-clear.js';
import { evaluateTimeRules } from '../store/time-rules.js';
import { EXIT_NOT_FOUND, EXIT_OK, EXIT_USAGE, type CommandIo } from './client-commands.js';

const EXCEPTION_USAGE = 'Usage: tracking exception clear EXCEPTION_ID --note TEXT\n';

/** `tracking evaluate`: re-run the time-based rules now. */
export async function runEvaluateCommand(
  database: Database,
  config: Config,
  io: CommandIo & { now: () => Date },
): Promise<number> {
  const result = await evaluateTimeRules(database, config.thresholds, io.now());
  io.stdout.write(`evaluated ${result.evaluated} shipment(s) with running free time; ${result.changed} changed\n`);
  return EXIT_OK;
}

/** `tracking exception clear ID --note TEXT`: operator clear (MANUAL_CLEAR). */
export async function runExceptionCommand(
  database: Database,
  config: Config,
  args: string[],
  io: CommandIo & { now: () => Date },
): Promise<number> {
  const [command, ...rest] = args;
  if (command !== 'clear') {
    io.stderr.write(EXCEPTION_USAGE);
    return EXIT_USAGE;
  }
  let parsed;
  try {
    parsed = parseArgs({ args: rest, options: { note: { type: 'string' } }, allowPositionals: true, strict: true });
  } catch (err) {
    io.stderr.write(`${(err as Error).message}\n${EXCEPTION_USAGE}`);
    return EXIT_USAGE;
  }
  const [exceptionId, ...extra] = parsed.positionals;
  const note = parsed.values.note?.trim();
  if (!exceptionId || extra.length > 0 || !note) {
    io.stderr.write(`an exception id and a non-empty --note are required\n${EXCEPTION_USAGE}`);
    return EXIT_USAGE;
  }
  if (note.length > 1000) {
    io.stderr.write('--note must be at most 1000 characters\n');
    return EXIT_USAGE;
  }
  const outcome = await clearException(database, exceptionId, note, io.now());
  switch (outcome.status) {
    case 'not_found':
      io.stderr.write(`no exception ${exceptionId}\n`);
      return EXIT_NOT_FOUND;
    case 'not_open':
      io.stderr.write(`exception ${exceptionId} is already ${outcome.exceptionStatus}; only a DETECTED exception can be cleared\n`);
      return EXIT_NOT_FOUND;
    case 'cleared':
      io.stdout.write(`cleared ${exceptionId} (MANUAL_CLEAR)\n`);
      return EXIT_OK;
  }
}
