import type { Database } from '../db/connect.js';
import { VERSION } from '../domain/release.js';
import { listInstances } from '../store/housekeeping/instance-heartbeats.js';
import { finishUpgrade } from '../store/housekeeping/upgrade-finish.js';
import { readUpgradeState } from '../store/housekeeping/upgrade-state.js';
import { EXIT_OK, type CommandIo } from './cli-context.js';

/** finish refused: an older release may still serve (docs/upgrading.md). */
export const EXIT_UPGRADE_BLOCKED = 1;

/**
 * `tracking upgrade status [--json]` (docs/upgrading.md): the instances by their heartbeats, the contract steps
 * still pending, and whether the upgrade is finished.
 */
export async function upgradeStatusCommand(
  database: Database,
  options: { json?: boolean },
  io: CommandIo & { now: () => Date },
): Promise<number> {
  const [instances, state] = await Promise.all([listInstances(database.db, io.now()), readUpgradeState(database.db)]);
  if (options.json) {
    io.stdout.write(`${JSON.stringify({ instances, pending: state.pending, finished: state.finished })}\n`);
    return EXIT_OK;
  }
  const table = [
    ['INSTANCE', 'VERSION', 'STARTED', 'LAST SEEN', 'ALIVE'],
    ...instances.map((i) => [i.id, i.version, i.startedAt, i.lastSeenAt, i.alive ? 'yes' : 'no']),
  ];
  const widths = table[0]!.map((_, c) => Math.max(...table.map((row) => row[c]!.length)));
  const lines =
    instances.length === 0
      ? ['No instance has recorded a heartbeat.']
      : table.map((row) =>
          row
            .map((v, c) => v.padEnd(widths[c]!))
            .join('  ')
            .trimEnd(),
        );
  lines.push(
    '',
    state.finished
      ? `Upgrade to ${VERSION}: finished.`
      : `Upgrade to ${VERSION}: not finished; pending contract steps: ${state.pending.join(', ') || 'none'}.`,
  );
  io.stdout.write(`${lines.join('\n')}\n`);
  return EXIT_OK;
}

/**
 * `tracking upgrade finish [--previous-release-stopped]`: exits 0 when the upgrade is finished (now or before),
 * 1 with the reason while an older release may still serve.
 */
export async function upgradeFinishCommand(
  database: Database,
  options: { previousReleaseStopped?: boolean },
  io: CommandIo & { now: () => Date },
): Promise<number> {
  const outcome = await finishUpgrade(database, {
    previousReleaseStopped: options.previousReleaseStopped,
    now: io.now,
    log: (message) => io.stderr.write(`${message}\n`),
  });
  switch (outcome.status) {
    case 'nothing-to-do':
      io.stdout.write(`The upgrade to ${VERSION} is finished already: nothing to do.\n`);
      return EXIT_OK;
    case 'finished':
      io.stdout.write(
        `Finished the upgrade to ${VERSION}${outcome.ran.length > 0 ? `: ran ${outcome.ran.join(', ')}` : ''}. Release 0.4.0 can no longer start on this database.\n`,
      );
      return EXIT_OK;
    case 'older-instances-alive':
      io.stderr.write(
        `Not finished: instances of an older release are alive (stop or upgrade them, then run finish again):\n${outcome.instances
          .map((i) => `  ${i.id}  ${i.version}  last seen ${i.lastSeenAt}\n`)
          .join('')}`,
      );
      return EXIT_UPGRADE_BLOCKED;
    case 'previous-release-may-run':
      io.stderr.write(
        `Not finished: instances of ${outcome.previousVersion} record no heartbeat, so finish cannot see whether one still runs. ` +
          `Check that every instance answers /ready with "version": "${VERSION}" (stop any other), then run ` +
          '`tracking upgrade finish --previous-release-stopped`.\n',
      );
      return EXIT_UPGRADE_BLOCKED;
  }
}
