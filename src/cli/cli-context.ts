import type { Command } from 'commander';
import type { Config } from '../config/config.js';
import type { Database } from '../db/connect.js';
import type { CommandIo } from './client-commands.js';

/** What every command runs with: its streams, environment and clock (tests pass their own). */
export interface CliContext extends CommandIo {
  stdin: NodeJS.ReadableStream;
  stdout: CommandIo['stdout'] & Partial<Pick<NodeJS.WriteStream, 'isTTY'>>;
  env: Record<string, string | undefined>;
  now: () => Date;
  /** Hands commands an open database instead of connecting to DATABASE_URL (tests); it is not closed. */
  database?: Database;
}

/** Exit code of a serve that keeps running. */
export const KEEP_RUNNING = -1;

export type WithDatabase = (action: (database: Database, config: Config) => Promise<number>) => Promise<void>;

/**
 * A command action that runs against the database, turning an input error of
 * the store (`inputError`: its own checks, e.g. a blank name) into a usage
 * error of the command (exit 2 with the message), like a parsing error.
 */
export function actionWithUsageErrors(withDatabase: WithDatabase, inputError: abstract new (...args: never[]) => Error) {
  return <A extends unknown[]>(run: (database: Database, cfg: Config, ...args: A) => Promise<number>) =>
    async (...args: [...A, Command]) => {
      const command = args[args.length - 1] as Command;
      try {
        await withDatabase((database, cfg) => run(database, cfg, ...(args.slice(0, -1) as A)));
      } catch (err) {
        if (err instanceof inputError) command.error(err.message);
        throw err;
      }
    };
}
