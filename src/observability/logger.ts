import { pino, type DestinationStream, type LoggerOptions, type Logger as PinoLogger } from 'pino';
import type { LogLevel } from '../config/config.js';
import { currentRequest } from './request-context.js';

/**
 * Structured logs with pino: one JSON object per line,
 * `{"level":"info","time":"…","pid":…,"hostname":"…","message":"…",…fields}`.
 * A line written while a request is handled carries its `correlationId`
 * (see request-context.ts), so the providerCorrelationReference a client
 * quotes finds every line of its request.
 *
 * Debug and info lines go to stdout, warn and error to stderr (as before
 * pino); tests pass one destination to read what was logged.
 */
export type WrittenLevel = Exclude<LogLevel, 'silent'>;

/** The service's log function: what modules take instead of a logger object. */
export type Log = (level: WrittenLevel, message: string, fields?: Record<string, unknown>) => void;

export interface Logger {
  log(level: WrittenLevel, message: string, fields?: Record<string, unknown>): void;
  isEnabled(level: WrittenLevel): boolean;
  /** The start banner: written at info whatever TT_LOG_LEVEL says, unless it is silent. */
  announce(message: string, fields?: Record<string, unknown>): void;
  /** Yoga's logger interface. */
  yogaLogger: Record<WrittenLevel, (...args: unknown[]) => void>;
}

/**
 * Keys that must never reach a log line. Nothing logs them on purpose; this
 * is the net under a future `fields` object that carries a request through.
 */
const REDACTED = [
  'authorization',
  'client_secret',
  'clientSecret',
  'access_token',
  'secret',
  'password',
  '*.authorization',
  '*.client_secret',
  '*.access_token',
  'headers.authorization',
  'headers.cookie',
];

/** `level`: TT_LOG_LEVEL (config.logLevel). `destination`: default stdout, warn and error to stderr. */
export function createLogger(level: LogLevel = 'info', destination?: DestinationStream): Logger {
  const options: LoggerOptions = {
    messageKey: 'message',
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    mixin() {
      const request = currentRequest();
      return request ? { correlationId: request.correlationId } : {};
    },
  };
  const output =
    destination ??
    pino.multistream(
      [
        { level: 'debug', stream: pino.destination({ dest: 1, sync: true }) },
        { level: 'warn', stream: pino.destination({ dest: 2, sync: true }) },
      ],
      // Each line goes only to the stream with the highest level it reaches.
      { dedupe: true },
    );
  const base = pino({ ...options, level, redact: { paths: REDACTED, censor: '[redacted]' } }, output);
  // The banner is the one line that carries a secret on purpose (the sandbox demo
  // client's, never a production one), so it is written without the redaction net.
  const announcer = pino({ ...options, level: level === 'silent' ? 'silent' : 'info' }, output);

  const write = (logger: PinoLogger, lvl: WrittenLevel, message: string, fields?: Record<string, unknown>) => {
    if (fields) logger[lvl](fields, message);
    else logger[lvl](message);
  };

  return {
    log: (lvl, message, fields) => write(base, lvl, message, fields),
    isEnabled: (lvl) => base.isLevelEnabled(lvl),
    announce: (message, fields) => write(announcer, 'info', message, fields),
    yogaLogger: {
      // Yoga logs on every request at debug: a disabled level costs one check, not a formatting.
      debug: yogaMethod(base, 'debug'),
      info: yogaMethod(base, 'info'),
      warn: yogaMethod(base, 'warn'),
      error: yogaMethod(base, 'error'),
    },
  };
}

/** Yoga passes strings and errors (an error is the cause of a masked 500): errors go under `err`, with their stack. */
function yogaMethod(logger: PinoLogger, level: WrittenLevel): (...args: unknown[]) => void {
  if (!logger.isLevelEnabled(level)) return () => {};
  return (...args) => {
    const err = args.find((a): a is Error => a instanceof Error);
    const message = args.map((a) => (a instanceof Error ? a.message : String(a))).join(' ');
    if (err) logger[level]({ err }, message);
    else logger[level](message);
  };
}
