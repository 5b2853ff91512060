import { Command, CommanderError } from 'commander';
import { ConfigError, loadConfig, type Config } from '../config/config.js';
import { VERSION } from '../domain/release.js';
import type { Database } from '../db/connect.js';
import { registerCarrierCommands } from './carrier-program.js';
import { registerShipmentCommands } from './shipment-program.js';
import {
  deliveryStatus,
  exceptionStatus,
  exceptionType,
  ingestFormat,
  limit,
  nonEmpty,
  note,
  once,
  reason,
  seconds,
  subscriptionStatus,
} from './arguments.js';
import { actionWithUsageErrors, EXIT_USAGE, lazy, type CliContext } from './cli-context.js';

export { KEEP_RUNNING, type CliContext } from './cli-context.js';

// Command implementations, loaded when a command runs: the parser and the help text import none of them, so
// `tracking --help` and an argument error answer at once, without loading the service (see lazy).
const clientCommands = () => import('./client-commands.js');
const createClientCommand = lazy(clientCommands, 'createClientCommand');
const disableClientCommand = lazy(clientCommands, 'disableClientCommand');
const listClientsCommand = lazy(clientCommands, 'listClientsCommand');
const rotateSecretCommand = lazy(clientCommands, 'rotateSecretCommand');
const setScopeCommand = lazy(clientCommands, 'setScopeCommand');
const pushCommands = () => import('./push-commands.js');
const deliverCommand = lazy(pushCommands, 'deliverCommand');
const listDeliveriesCommand = lazy(pushCommands, 'listDeliveriesCommand');
const listSubscriptionsCommand = lazy(pushCommands, 'listSubscriptionsCommand');
const retryDeliveryCommand = lazy(pushCommands, 'retryDeliveryCommand');
const exceptionCommands = () => import('./exception-commands.js');
const clearExceptionCommand = lazy(exceptionCommands, 'clearExceptionCommand');
const listExceptionsCommand = lazy(exceptionCommands, 'listExceptionsCommand');
const runEvaluateCommand = lazy(exceptionCommands, 'runEvaluateCommand');
const runIngestCommand = lazy(() => import('./ingest-command.js'), 'runIngestCommand');
const runEdiIngestCommand = lazy(() => import('./edi-ingest-command.js'), 'runEdiIngestCommand');
const enableClientCommand = lazy(() => import('./client-enable-command.js'), 'enableClientCommand');
const rewrapKeysCommand = lazy(() => import('./keys-rewrap-command.js'), 'rewrapKeysCommand');
const generateKeysCommand = lazy(() => import('./keys-command.js'), 'generateKeysCommand');
const listRetiredKeysCommand = lazy(() => import('./keys-retire-command.js'), 'listRetiredKeysCommand');
const retireKeyCommand = lazy(() => import('./keys-retire-command.js'), 'retireKeyCommand');
const trainEtaCommand = lazy(() => import('./eta-commands.js'), 'trainEtaCommand');
const runServe = lazy(() => import('./serve.js'), 'runServe');
const upgradeCommands = () => import('./upgrade-commands.js');
const upgradeStatusCommand = lazy(upgradeCommands, 'upgradeStatusCommand');
const upgradeFinishCommand = lazy(upgradeCommands, 'upgradeFinishCommand');
const backfillStoredSnapshots = lazy(() => import('../store/shipments/stored-snapshots.js'), 'backfillStoredSnapshots');
const backfillCompactEvents = lazy(() => import('../store/events/compact-events.js'), 'backfillCompactEvents');
const backfillCompactSnapshots = lazy(() => import('../store/shipments/stored-snapshots.js'), 'backfillCompactSnapshots');
const backfillCompactMilestones = lazy(() => import('../store/shipments/compact-milestones.js'), 'backfillCompactMilestones');
const unholdChanges = lazy(() => import('../store/changes/held-changes.js'), 'unholdChanges');
const readUpgradeState = lazy(() => import('../store/housekeeping/upgrade-state.js'), 'readUpgradeState');

/**
 * The `tracking` command line (README, Command line) on commander. Every command
 * and subcommand has `--help`, which prints and exits 0 before anything
 * else: no configuration is read and no database is opened until a
 * command's action runs. Usage errors exit 2 with the message and the
 * command's help on stderr.
 */

export async function runCli(argv: readonly string[], context: CliContext): Promise<number> {
  let exitCode = 0;
  const program = buildProgram(context, (code) => (exitCode = code));
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (err) {
    // Help and version exit 0; every parsing or usage error exits 2.
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : EXIT_USAGE;
    if (err instanceof ConfigError) {
      context.stderr.write(`configuration error: ${err.message}\n`);
      return EXIT_USAGE;
    }
    throw err;
  }
}

function buildProgram(context: CliContext, exit: (code: number) => void): Command {
  const program = new Command('tracking')
    .description('Shipment track-and-trace API: serve it, load data, manage API clients and keys')
    .version(VERSION, '-V, --version', 'print the release (semver) and exit')
    .exitOverride()
    .showHelpAfterError()
    .addHelpText(
      'after',
      '\nConfiguration comes from the environment: see docs/configuration.md (DATABASE_URL, PORT, TT_*).\n' +
        "Run `tracking <command> --help` for a command's options.\n",
    );

  const config = (): Config => loadConfig(context.env);
  /** Runs `action` with the configured database, migrated; the database is closed afterwards. */
  const withDatabase = async (action: (database: Database, config: Config) => Promise<number>): Promise<void> => {
    const cfg = config();
    if (context.database) {
      exit(await action(context.database, cfg));
      return;
    }
    const [{ connectDatabase }, { prepareDatabase }, { createLogger }] = await Promise.all([
      import('../db/connect.js'),
      import('./prepare-database.js'),
      import('../observability/logger.js'),
    ]);
    const database = connectDatabase(cfg.databaseUrl, { poolSize: cfg.dbPoolSize });
    try {
      // On stderr: stdout carries the commands' own output (JSON that scripts read).
      await prepareDatabase(database, createLogger(cfg.logLevel, process.stderr).log);
      exit(await action(database, cfg));
    } finally {
      await database.close();
    }
  };

  program
    .command('serve')
    .description('migrate, seed the sandbox (sandbox only, empty database), listen; what `npm start` runs')
    .action(async () => exit(await runServe(config(), process.stdout)));

  program
    .command('migrate')
    .description(
      'apply database migrations (expand steps); build the stored snapshots any shipment lacks; once the upgrade is finished, compact snapshots, events and milestone indexes still stored plain, and make held access changes plain',
    )
    .action(() =>
      withDatabase(async (database) => {
        // Migrated by withDatabase; an interrupted upgrade may have left shipments without their snapshot.
        await backfillStoredSnapshots(database.db, database.dialect);
        // Rewriting rows into the compact forms is a contract step: only once the upgrade is finished
        // (docs/upgrading.md), where it picks up what an interrupted finish left.
        if ((await readUpgradeState(database.db)).writesCompact) {
          // Events still stored as plain JSON (migration 021) get their compact form.
          await backfillCompactEvents(database.db);
          // Snapshots stored as text are rewritten in the compact form.
          await backfillCompactSnapshots(database.db);
          // Shipments' milestone indexes still stored as plain JSON (migration 023).
          await backfillCompactMilestones(database.db);
          // Access changes still held (an instance that learned of the finish late wrote one after its step).
          await unholdChanges(database.db);
        }
        context.stdout.write(`migrated ${database.description}\n`);
        return 0;
      }),
    );

  program
    .command('ingest')
    .description('load ingest bundles: JSON files, or - for stdin; one transaction per file, stops at the first failure')
    .argument('<FILE...>', 'bundle files; - reads stdin')
    .option('--json', 'print one JSON summary object per file on stdout')
    .option('--format <FORMAT>', 'dcsa (ingest bundles, the default), or EDI status messages: x12-315, iftsta', once(ingestFormat))
    .option('--carrier <CODE>', 'with an EDI --format: the carrier that sent the files', once(nonEmpty))
    .addHelpText(
      'after',
      '\nExit status: 0 all ingested, 1 a file was invalid or failed (nothing of it written), or an EDI transaction was rejected (kept), 2 usage.\n',
    )
    .action(async (files: string[], options: { json?: boolean; format?: string; carrier?: string }, command: Command) => {
      if (files.filter((f) => f === '-').length > 1) command.error('stdin (-) can be read only once');
      const format = options.format;
      if (format !== undefined && format !== 'dcsa') {
        if (!options.carrier) command.error(`--format ${format} needs --carrier CODE: the carrier that sent the files`);
        await withDatabase((database, cfg) =>
          runEdiIngestCommand(
            database,
            cfg,
            files,
            { format: format as 'x12-315' | 'iftsta', carrier: options.carrier!, json: options.json },
            {
              ...context,
              thresholds: cfg.thresholds,
              wakeChannel: { redisUrl: cfg.quotas.redisUrl, keyPrefix: cfg.quotas.keyPrefix },
            },
          ),
        );
        return;
      }
      if (options.carrier) command.error('--carrier is for EDI files (--format x12-315 or iftsta); a bundle names its carrierCode');
      await withDatabase((database, cfg) =>
        runIngestCommand(database, files, options, {
          ...context,
          thresholds: cfg.thresholds,
          wakeChannel: { redisUrl: cfg.quotas.redisUrl, keyPrefix: cfg.quotas.keyPrefix },
        }),
      );
    });

  program
    .command('evaluate')
    .description('re-run the time-based exception rules now (demurrage, detention)')
    .action(() => withDatabase((database, cfg) => runEvaluateCommand(database, cfg, context)));

  const eta = program.command('eta').description("the predicted arrival's model (docs/predicted-arrival.md)");
  eta
    .command('train')
    .description('fold the voyages that arrived since the last training into the model now, and print a summary line')
    .option('--from-scratch', 'learn the model again from the whole history')
    .option('--json', 'print the summary as JSON')
    .option('--wait <seconds>', 'how long to wait while another instance trains (default 60)', seconds)
    .action((options: { fromScratch?: boolean; json?: boolean; wait?: number }) =>
      withDatabase((database, cfg) => trainEtaCommand(database, cfg, { ...options, waitSeconds: options.wait }, context)),
    );

  const exception = program.command('exception').description('list and clear exceptions');
  exception
    .command('list')
    .description('stored exceptions, newest change first')
    .option('--status <STATUS>', 'only DETECTED or RESOLVED', once(exceptionStatus))
    .option('--type <TYPE>', 'only this exceptionType, e.g. ETA_DELAY', once(exceptionType))
    .option('--account <ACCOUNT>', "only shipments of this account's clients", once(nonEmpty))
    .option('--limit <N>', 'at most N (default 100)', once(limit))
    .option('--json', 'one JSON array of {shipment, updatedAt, exception}')
    .action((options: { status?: 'DETECTED' | 'RESOLVED'; type?: string; account?: string; limit?: number; json?: boolean }) =>
      withDatabase((database) =>
        listExceptionsCommand(
          database,
          { status: options.status, type: options.type, account: options.account, limit: options.limit ?? 100 },
          options,
          context,
        ),
      ),
    );
  exception
    .command('clear')
    .description('operator clear: resolve a DETECTED exception with resolutionType MANUAL_CLEAR')
    .argument('<EXCEPTION_ID>')
    .requiredOption('--note <TEXT>', 'why (at most 1000 characters), stored as resolutionNote', once(note))
    .action((exceptionId: string, options: { note: string }) =>
      withDatabase((database, cfg) => clearExceptionCommand(database, cfg, exceptionId, options.note, context)),
    );

  const client = program
    .command('client')
    .description('API credentials')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  tracking client create --name NAME --account ACCOUNT [--json]\n' +
        '  tracking client list [--json]\n' +
        '  tracking client disable CLIENT_ID | enable CLIENT_ID\n' +
        '  tracking client rotate-secret CLIENT_ID [--json]\n' +
        '  tracking client grant CLIENT_ID track-and-trace.subscribe\n',
    );
  // The store's own input checks (e.g. a blank name) are usage errors of the command.
  const clientAction = actionWithUsageErrors(withDatabase, async () => (await import('../auth/client-store.js')).ClientInputError);
  client
    .command('create')
    .description('create credentials for one account; the secret is shown once')
    .requiredOption('--name <NAME>', 'who the client is', once(nonEmpty))
    .requiredOption('--account <ACCOUNT>', 'the account whose shipments it may see', once(nonEmpty))
    .option('--json', 'print exactly {"client_id","client_secret"}')
    .action(
      clientAction((database, cfg, options: { name: string; account: string; json?: boolean }) =>
        createClientCommand(database, cfg, options, context),
      ),
    );
  client
    .command('list')
    .description('clients, without secrets')
    .option('--json', 'one JSON array')
    .action(clientAction((database, cfg, options: { json?: boolean }) => listClientsCommand(database, cfg, options, context)));
  client
    .command('disable')
    .description('no new tokens; its live tokens stop working within 5 seconds')
    .argument('<CLIENT_ID>')
    .action(clientAction((database, cfg, clientId: string) => disableClientCommand(database, cfg, clientId, context)));
  client
    .command('enable')
    .description('a disabled client may get tokens again (its disabled webhook subscriptions stay disabled)')
    .argument('<CLIENT_ID>')
    .action(clientAction((database, cfg, clientId: string) => enableClientCommand(database, cfg, clientId, context)));
  client
    .command('rotate-secret')
    .description('a new secret; the old one stops working (issued tokens stay valid until they expire)')
    .argument('<CLIENT_ID>')
    .option('--json', 'print exactly {"client_id","client_secret"}')
    .action(
      clientAction((database, cfg, clientId: string, options: { json?: boolean }) =>
        rotateSecretCommand(database, cfg, clientId, options, context),
      ),
    );

  for (const [name, grant] of [
    ['grant', true],
    ['revoke', false],
  ] as const) {
    client
      .command(name)
      .description(
        grant
          ? 'let the client request a scope, e.g. track-and-trace.subscribe (webhook subscriptions)'
          : 'take a scope back (issued tokens lose it within 5 seconds)',
      )
      .argument('<CLIENT_ID>')
      .argument('<SCOPE>')
      .action(
        clientAction((database, cfg, clientId: string, scope: string) => setScopeCommand(database, cfg, clientId, scope, grant, context)),
      );
  }

  const subscription = program.command('subscription').description('webhook subscriptions (push delivery)');
  subscription
    .command('list')
    .description('subscriptions, newest first (the signing secrets are never shown)')
    .option('--client <CLIENT_ID>', "only this client's", once(nonEmpty))
    .option('--status <STATUS>', 'only ACTIVE or DISABLED', once(subscriptionStatus))
    .option('--limit <N>', 'at most N (default 100)', once(limit))
    .option('--json', 'one JSON array')
    .action((options: { client?: string; status?: 'ACTIVE' | 'DISABLED'; limit?: number; json?: boolean }) =>
      withDatabase((database) => listSubscriptionsCommand(database, { ...options, limit: options.limit ?? 100 }, options, context)),
    );

  const delivery = program.command('delivery').description('the webhook delivery log');
  delivery
    .command('list')
    .description('deliveries, newest first')
    .option('--subscription <SUBSCRIPTION_ID>', "only this subscription's", once(nonEmpty))
    .option('--status <STATUS>', 'only PENDING, DELIVERED or FAILED', once(deliveryStatus))
    .option('--limit <N>', 'at most N (default 100)', once(limit))
    .option('--json', 'one JSON array')
    .action((options: { subscription?: string; status?: string; limit?: number; json?: boolean }) =>
      withDatabase((database) => listDeliveriesCommand(database, { ...options, limit: options.limit ?? 100 }, options, context)),
    );
  delivery
    .command('retry')
    .description('send a FAILED delivery again (its subscription must be active), with a fresh retry period')
    .argument('<DELIVERY_ID>')
    .action((deliveryId: string) => withDatabase((database) => retryDeliveryCommand(database, deliveryId, context)));

  program
    .command('deliver')
    .description('run a webhook delivery worker without the HTTP server (see TT_DELIVERY_WORKER)')
    .option('--once', 'send what is due, print a JSON summary and exit')
    .action((options: { once?: boolean }) => withDatabase((database, cfg) => deliverCommand(database, cfg, options, context)));

  const carrier = registerCarrierCommands(program, context, withDatabase);
  const shipment = registerShipmentCommands(program, context, withDatabase);

  const keys = program.command('keys').description('production secrets');
  keys
    .command('generate')
    .description('print a new TT_SIGNING_KEY (P-256 private JWK) and TT_SECRET_PEPPER (256 random bits) for an env file')
    .option('--json', 'one JSON object with both')
    .action(async (options: { json?: boolean }) => exit(await generateKeysCommand(options, context)));
  keys
    .command('rewrap')
    .description(
      'during a pepper rotation (TT_SECRET_PEPPER new, TT_PREVIOUS_SECRET_PEPPER old): re-seal every stored secret under the new pepper, ' +
        'list the clients still hashed under the old one',
    )
    .option('--json', 'one JSON object')
    .addHelpText('after', '\nExit status: 0 nothing depends on the old pepper any more, 1 something still does (listed), 2 usage.\n')
    .action((options: { json?: boolean }) => withDatabase((database, cfg) => rewrapKeysCommand(database, cfg, options, context)));

  keys
    .command('retire')
    .description('refuse the tokens a signing key signed, on every instance within 5 seconds; the streams they opened end')
    .argument('<KID>', 'the key id (the kid of /.well-known/jwks.json, of a token header)')
    .requiredOption('--reason <TEXT>', 'why (at most 500 characters)', once(reason))
    // A kid is base64url: one in 64 begins with '-', which commander would otherwise take for an unknown option.
    .allowUnknownOption()
    .action((kid: string, options: { reason: string }) => withDatabase((database) => retireKeyCommand(database, kid, options, context)));
  keys
    .command('retired')
    .description('the retired signing keys')
    .option('--json', 'one JSON array')
    .action((options: { json?: boolean }) => withDatabase((database) => listRetiredKeysCommand(database, options, context)));

  const upgrade = program.command('upgrade').description('rolling upgrades: the running releases, and finishing (docs/upgrading.md)');
  upgrade
    .command('status')
    .description('the instances with their release and heartbeat, the contract steps pending, whether the upgrade is finished')
    .option('--json', 'one JSON object: { instances, pending, finished }')
    .action((options: { json?: boolean }) => withDatabase((database) => upgradeStatusCommand(database, options, context)));
  upgrade
    .command('finish')
    .description(
      'once no instance of an older release runs: switch every instance to the compact forms and run the contract steps (exit 1 while an older release may run)',
    )
    .option('--previous-release-stopped', 'state that no instance of the previous release (which records no heartbeat) runs')
    .action((options: { previousReleaseStopped?: boolean }) =>
      withDatabase((database) => upgradeFinishCommand(database, options, context)),
    );

  for (const group of [program, exception, client, subscription, delivery, carrier, shipment, keys, upgrade]) {
    requireSubcommand(group);
  }
  configureOutput(program, context);
  return program;
}

/** A command group run without (or with an unknown) subcommand is a usage error, not a quiet help page. */
function requireSubcommand(group: Command): void {
  group
    .usage('<command> [options]')
    .argument('[command]')
    .allowExcessArguments()
    .action((name: string | undefined) => group.error(name ? `unknown command '${name}'` : 'missing command'));
}

/** Errors read `tracking client create: <reason>`, then a blank line and the command's help. */
function configureOutput(command: Command, context: CliContext): void {
  const path = commandPath(command);
  command.configureOutput({
    writeOut: (text) => context.stdout.write(text),
    writeErr: (text) => context.stderr.write(text),
    outputError: (text, write) => write(`${path}: ${text.replace(/^error: /, '')}`),
  });
  for (const sub of command.commands) configureOutput(sub, context);
}

function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}
