#!/usr/bin/env node
import { ConfigError, loadConfig, type Config } from '../config/config.js';
import { connectDatabase, migrateToLatest, type Database } from '../db/connect.js';
import { runClientCommand } from './client-commands.js';
import { runEvaluateCommand, runExceptionCommand } from './exception-commands.js';
import { runIngestCommand } from './ingest-command.js';
import { runServe } from './serve.js';

const USAGE = `Usage: tracking <command>

  serve                                   migrate, seed the sandbox (sandbox only, empty database), listen
  migrate                                 apply database migrations
  ingest FILE... | -                      load ingest bundles (JSON files, or - for stdin)
  evaluate                                re-run time-based exception rules (demurrage, detention)
  exception clear EXCEPTION_ID --note T   operator clear (resolutionType MANUAL_CLEAR)
  client create --name NAME --account ACCOUNT [--json]
  client list [--json] | client disable CLIENT_ID | client rotate-secret CLIENT_ID [--json]

Configuration comes from the environment: see README.md (DATABASE_URL, PORT, TT_*).
`;

async function withDatabase(config: Config, run: (database: Database) => Promise<number>): Promise<number> {
  const database = connectDatabase(config.databaseUrl, { poolSize: config.dbPoolSize });
  try {
    await migrateToLatest(database);
    return await run(database);
  } finally {
    await database.close();
  }
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(USAGE);
    return command ? 0 : 2;
  }
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`configuration error: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
  const io = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, now: () => new Date() };
  switch (command) {
    case 'serve':
      return runServe(config);
    case 'migrate':
      return withDatabase(config, async (database) => {
        process.stdout.write(`migrated ${database.description}\n`);
        return 0;
      });
    case 'ingest':
      return withDatabase(config, (database) => runIngestCommand(database, args, { ...io, thresholds: config.thresholds }));
    case 'evaluate':
      return withDatabase(config, (database) => runEvaluateCommand(database, config, io));
    case 'exception':
      return withDatabase(config, (database) => runExceptionCommand(database, config, args, io));
    case 'client':
      return withDatabase(config, (database) => runClientCommand(database, config, args, io));
    default:
      process.stderr.write(`unknown command "${command}"\n\n${USAGE}`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    // serve keeps running; every other command ends with its exit code.
    if (code !== -1) process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
