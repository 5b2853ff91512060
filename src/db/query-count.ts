import type { LogConfig, LogEvent } from 'kysely';

/**
 * Opt-in count of SQL statements, for the benchmark's "SQL round trips per
 * request" (`npm run bench`). With `TT_COUNT_QUERIES=1` every database opened
 * by connectDatabase counts its statements, and the app serves the total on
 * `GET /internal/stats` (src/http/use-internal-stats.ts).
 *
 * @NOTE a diagnostic switch, read here rather than in config.ts because it
 * changes no behaviour. When it is off no log hook is installed at all (Kysely
 * then skips its timing and logging path), so production pays nothing.
 */
export const COUNT_QUERIES = process.env.TT_COUNT_QUERIES === '1';

let statements = 0;

/** Statements sent by this process since it started (stays 0 when counting is off). */
export function executedStatements(): number {
  return statements;
}

/** The Kysely log config to use: `given` unchanged when counting is off, else a hook that counts, then forwards. */
export function withQueryCount(given: LogConfig | undefined): LogConfig | undefined {
  if (!COUNT_QUERIES) return given;
  if (Array.isArray(given)) throw new Error('TT_COUNT_QUERIES needs a log function, not a level list');
  const forward = given as ((event: LogEvent) => void) | undefined;
  return (event: LogEvent) => {
    // A failed statement was a round trip too.
    statements++;
    forward?.(event);
  };
}
