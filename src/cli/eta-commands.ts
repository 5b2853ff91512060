import { trainEta } from '../app/eta-training.js';
import type { Config } from '../config/config.js';
import type { Database } from '../db/connect.js';
import { EXIT_NOT_FOUND, EXIT_OK, type CommandIo } from './cli-context.js';

/**
 * `tracking eta train` (docs/predicted-arrival.md, How it is trained): the training `serve` runs in the background,
 * now and without pauses, to the end of the arrived history. It takes the same lease: while another instance is
 * training it waits (up to `--wait` seconds), then says so and exits 1.
 */
export async function trainEtaCommand(
  database: Database,
  config: Config,
  options: { fromScratch?: boolean; json?: boolean; waitSeconds?: number },
  io: CommandIo & { now: () => Date },
): Promise<number> {
  const deadline = Date.now() + (options.waitSeconds ?? 60) * 1000;
  const train = () =>
    trainEta(database, { now: io.now, batchEvents: config.eta.trainBatchEvents, pauseMs: 0, fromScratch: options.fromScratch === true });
  let result = await train();
  // Another instance (serve's background training) holds the lease: its run ends, or its lease runs out.
  while (result.kind === 'busy' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    result = await train();
  }
  if (result.kind === 'busy') {
    io.stderr.write('another instance is training the ETA model; try again when it has finished\n');
    return EXIT_NOT_FOUND;
  }
  if (options.json) {
    io.stdout.write(`${JSON.stringify(result)}\n`);
    return EXIT_OK;
  }
  const seconds = (result.elapsedMs / 1000).toFixed(1);
  io.stdout.write(
    `learned from ${result.learned} voyage(s) in ${seconds} s; the model holds ${result.voyages} voyage(s) on ${result.lanes} lane(s)` +
      ` (version ${result.version ?? 'none'})\n`,
  );
  return EXIT_OK;
}
