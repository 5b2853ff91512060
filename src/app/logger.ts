/**
 * Structured logs, one JSON object per line on stdout/stderr, so that the
 * correlation id of a request (providerCorrelationReference) can be found in
 * the logs with grep or a log pipeline.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  log(level: 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>): void;
  /** Yoga's logger interface. */
  yogaLogger: Record<LogLevel, (...args: unknown[]) => void>;
}

const ORDER: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/** `TT_LOG_LEVEL`: debug, info (default), warn, error or silent. */
export function createLogger(level: string = process.env.TT_LOG_LEVEL ?? 'info'): Logger {
  const threshold = level === 'silent' ? Infinity : (ORDER[level as LogLevel] ?? ORDER.info);
  const write = (lvl: LogLevel, message: string, fields?: Record<string, unknown>) => {
    if (ORDER[lvl] < threshold) return;
    const line = JSON.stringify({ time: new Date().toISOString(), level: lvl, message, ...fields });
    (lvl === 'error' || lvl === 'warn' ? process.stderr : process.stdout).write(`${line}\n`);
  };
  const yogaLogger = Object.fromEntries(
    (Object.keys(ORDER) as LogLevel[]).map((lvl) => [
      lvl,
      (...args: unknown[]) => write(lvl, args.map((a) => (a instanceof Error ? (a.stack ?? a.message) : String(a))).join(' ')),
    ]),
  ) as Logger['yogaLogger'];
  return { log: write, yogaLogger };
}
