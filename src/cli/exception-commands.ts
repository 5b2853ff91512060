import type { Config } from '../config/config.js';
import type { Database } from '../db/connect.js';
import { clearException } from '../store/shipment-writes/exception-clear.js';
import { listExceptions, type ExceptionFilter } from '../store/exceptions/exception-list.js';
import { evaluateTimeRules } from '../store/shipment-writes/time-rules.js';
import { EXIT_NOT_FOUND, EXIT_OK, table, type CommandIo } from './client-commands.js';

/** `tracking evaluate`: re-run the time-based rules now. */
export async function runEvaluateCommand(database: Database, config: Config, io: CommandIo & { now: () => Date }): Promise<number> {
  const result = await evaluateTimeRules(database, config.thresholds, io.now());
  io.stdout.write(`evaluated ${result.evaluated} shipment(s) with running free time; ${result.changed} changed\n`);
  return EXIT_OK;
}

/** `tracking exception clear ID --note TEXT`: operator clear (MANUAL_CLEAR). The note is checked by the caller. */
export async function clearExceptionCommand(
  database: Database,
  config: Config,
  exceptionId: string,
  note: string,
  io: CommandIo & { now: () => Date },
): Promise<number> {
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

/**
 * `tracking exception list`: stored exceptions, newest change first, as a
 * table or (--json) one JSON array of {shipment, updatedAt, exception}.
 */
export async function listExceptionsCommand(
  database: Database,
  filter: ExceptionFilter,
  options: { json?: boolean },
  io: CommandIo,
): Promise<number> {
  const listed = await listExceptions(database.db, filter);
  if (options.json) {
    io.stdout.write(JSON.stringify(listed) + '\n');
    return EXIT_OK;
  }
  if (listed.length === 0) {
    io.stdout.write('No exceptions match.\n');
    return EXIT_OK;
  }
  io.stdout.write(
    table(
      ['EXCEPTION_ID', 'TYPE', 'SEVERITY', 'STATUS', 'CARRIER', 'BOOKING', 'BILL_OF_LADING', 'UPDATED', 'TITLE'],
      listed.map(({ shipment, updatedAt, exception }) => [
        exception.exceptionID,
        exception.exceptionType,
        exception.severity,
        exception.resolutionType ? `${exception.status} (${exception.resolutionType})` : exception.status,
        shipment.carrierCode,
        shipment.carrierBookingReference,
        shipment.billOfLadingNumber ?? '',
        updatedAt,
        exception.title,
      ]),
    ),
  );
  if (listed.length === filter.limit) io.stderr.write(`(showing the newest ${filter.limit}; raise --limit for more)\n`);
  return EXIT_OK;
}
