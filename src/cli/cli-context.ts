import type { Command } from 'commander';
import type { Config } from '../config/config.js';
import type { Database } from '../db/connect.js';

/** Where a command writes; process.stdout/stderr in the bin, string buffers in tests. */
export interface CommandIo {
  stdout: { write(text: string): unknown; isTTY?: boolean };
  stderr: { write(text: string): unknown; isTTY?: boolean };
}

/** What every command runs with: its streams, environment and clock (tests pass their own). */
export interface CliContext extends CommandIo {
  stdin: NodeJS.ReadableStream;
  stdout: CommandIo['stdout'] & Partial<Pick<NodeJS.WriteStream, 'isTTY'>>;
  env: Record<string, string | undefined>;
  now: () => Date;
  /** Hands commands an open database instead of connecting to DATABASE_URL (tests); it is not closed. */
  database?: Database;
}

export const EXIT_OK = 0;
export const EXIT_NOT_FOUND = 1;
export const EXIT_USAGE = 2;

/**
 * A command implementation loaded when it runs (README "Command line"): the parser and the help text import
 * none of them, so `tracking --help` and an argument error answer at once, without loading the service.
 */
export function lazy<M, K extends keyof M>(
  load: () => Promise<M>,
  name: K,
): M[K] extends (...args: infer A) => Promise<infer R> ? (...args: A) => Promise<R> : never {
  const run = async (...args: unknown[]) => ((await load())[name] as (...a: unknown[]) => Promise<unknown>)(...args);
  return run as never;
}

/** Exit code of a serve that keeps running. */
export const KEEP_RUNNING = -1;

export type WithDatabase = (action: (database: Database, config: Config) => Promise<number>) => Promise<void>;

/**
 * A command action that runs against the database, turning an input error of
 * the store (`inputError`: its own checks, e.g. a blank name) into a usage
 * error of the command (exit 2 with the message), like a parsing error.
 */
export function actionWithUsageErrors(withDatabase: WithDatabase, inputError: () => Promise<abstract new (...args: never[]) => Error>) {
  return <A extends unknown[]>(run: (database: Database, cfg: Config, ...args: A) => Promise<number>) =>
    async (...args: [...A, Command]) => {
      const command = args[args.length - 1] as Command;
      try {
        await withDatabase((database, cfg) => run(database, cfg, ...(args.slice(0, -1) as A)));
      } catch (err) {
        if (err instanceof (await inputError())) command.error((err as Error).message);
        throw err;
      }
    };
}
