import { type Command, InvalidArgumentError } from 'commander';
import type { AddCarrierOptions } from './carrier-commands.js';
import type { UpdateCarrierOptions } from './carrier-update-command.js';
import { limit, nonEmpty, once } from './arguments.js';
import { actionWithUsageErrors, lazy, type CliContext, type WithDatabase } from './cli-context.js';

// Loaded when a command runs, never for its help or an argument error (see lazy).
const carrierCommands = () => import('./carrier-commands.js');
const addCarrierCommand = lazy(carrierCommands, 'addCarrierCommand');
const disableCarrierCommand = lazy(carrierCommands, 'disableCarrierCommand');
const listCarriersCommand = lazy(carrierCommands, 'listCarriersCommand');
const rotateCarrierSecretCommand = lazy(carrierCommands, 'rotateCarrierSecretCommand');
const pollCommand = lazy(() => import('./poll-command.js'), 'pollCommand');
const updateCarrierCommand = lazy(() => import('./carrier-update-command.js'), 'updateCarrierCommand');
const enableCarrierCommand = lazy(() => import('./carrier-status-commands.js'), 'enableCarrierCommand');
const removeCarrierCommand = lazy(() => import('./carrier-status-commands.js'), 'removeCarrierCommand');
const carrierPrefixesCommand = lazy(() => import('./carrier-status-commands.js'), 'carrierPrefixesCommand');
const carrierFormatsCommand = lazy(() => import('./carrier-status-commands.js'), 'carrierFormatsCommand');
const listUnlinkedCommand = lazy(() => import('./carrier-unlinked-command.js'), 'listUnlinkedCommand');
const listRejectedCommand = lazy(() => import('./carrier-rejected-commands.js'), 'listRejectedCommand');
const replayRejectedCommand = lazy(() => import('./carrier-rejected-commands.js'), 'replayRejectedCommand');

/**
 * `tracking carrier …` and `tracking poll` on the program (src/cli/program.ts
 * keeps only the call): carriers as configured event sources, and a
 * dedicated poller. Returns the `carrier` group.
 */
export function registerCarrierCommands(program: Command, context: CliContext, withDatabase: WithDatabase): Command {
  const carrier = program
    .command('carrier')
    .description('carriers as event sources: DCSA notifications pushed to us, DCSA events endpoints we poll')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  tracking carrier add MAEU --name Maersk [--json]                      push only: prints the callback URL and secret\n' +
        '  tracking carrier add MAEU --events-url https://api.carrier.example/v2/events \\\n' +
        '      --oauth-token-url https://auth.carrier.example/token --oauth-client-id ID --oauth-client-secret SECRET\n' +
        '  tracking carrier list [--json]\n' +
        '  tracking carrier update MAEU --api-key NEW_KEY --overlap 86400\n' +
        '  tracking carrier disable MAEU | enable MAEU | remove MAEU\n' +
        '  tracking carrier rotate-secret MAEU [--overlap SECONDS] [--json]\n' +
        '  tracking carrier unlinked [--carrier MAEU]\n' +
        '  tracking carrier rejected list [--carrier MAEU] | replay [--carrier MAEU] [--id ID]\n',
    );
  // The store's input checks are usage errors of the command.
  const action = actionWithUsageErrors(withDatabase, async () => (await import('../carriers/carrier-config.js')).CarrierInputError);

  carrier
    .command('add')
    .description('configure a carrier; prints the notification URL and secret (shown once)')
    .argument('<CODE>', 'the carrier code (SCAC, 2 to 4 upper-case letters) its events are stored under')
    .option('--name <NAME>', 'who the carrier is (default: the code)', once(nonEmpty))
    .option('--secret <BASE64>', 'use this notification secret (Base64, at least 32 bytes) instead of a generated one', once(nonEmpty))
    .option('--events-url <URL>', "the carrier's DCSA GET /v2/events address, to poll", once(nonEmpty))
    .option('--oauth-token-url <URL>', 'OAuth2 client credentials: token endpoint', once(nonEmpty))
    .option('--oauth-client-id <ID>', 'OAuth2 client id', once(nonEmpty))
    .option('--oauth-client-secret <SECRET>', 'OAuth2 client secret (stored encrypted)', once(nonEmpty))
    .option('--oauth-scope <SCOPE>', 'OAuth2 scope to request', once(nonEmpty))
    .option('--api-key-header <NAME>', 'API key header name (default X-API-Key)', once(nonEmpty))
    .option('--api-key <VALUE>', 'API key value (stored encrypted)', once(nonEmpty))
    .option('--poll-interval <SECONDS>', 'seconds between polls (default 300)', once(seconds))
    .option('--poll-since <TIMESTAMP>', 'first poll asks for events created from here (default: now)', once(nonEmpty))
    .option('--json', 'print exactly {"carrierCode","notificationUrl","notificationSecret"}')
    .action(action((database, cfg, code: string, options: AddCarrierOptions) => addCarrierCommand(database, cfg, code, options, context)));
  carrier
    .command('list')
    .description('carriers and their poll state, without secrets or credentials')
    .option('--json', 'one JSON array')
    .action(action((database, cfg, options: { json?: boolean }) => listCarriersCommand(database, cfg, options, context)));
  carrier
    .command('disable')
    .description('refuse its notifications (404) and stop polling it')
    .argument('<CODE>')
    .action(action((database, cfg, code: string) => disableCarrierCommand(database, cfg, code, context)));
  carrier
    .command('update')
    .description('change a carrier: name, events URL, its credentials, poll interval (the secret: rotate-secret)')
    .argument('<CODE>')
    .option('--name <NAME>', 'who the carrier is', once(nonEmpty))
    .option('--events-url <URL>', 'poll this DCSA GET /v2/events address from now on', once(nonEmpty))
    .option('--no-events-url', 'stop polling: push only (its credentials are dropped)')
    .option('--oauth-token-url <URL>', 'new OAuth2 client credentials: token endpoint', once(nonEmpty))
    .option('--oauth-client-id <ID>', 'OAuth2 client id', once(nonEmpty))
    .option('--oauth-client-secret <SECRET>', 'OAuth2 client secret (stored encrypted)', once(nonEmpty))
    .option('--oauth-scope <SCOPE>', 'OAuth2 scope to request', once(nonEmpty))
    .option('--api-key-header <NAME>', 'new API key: header name (default X-API-Key)', once(nonEmpty))
    .option('--api-key <VALUE>', 'new API key value (stored encrypted)', once(nonEmpty))
    .option('--no-credentials', 'call the events URL without credentials')
    .option(
      '--overlap <SECONDS>',
      'with new credentials: keep trying the replaced ones this long when the carrier refuses the new (401, 403); default 0',
      once(seconds),
    )
    .option('--poll-interval <SECONDS>', 'seconds between polls', once(seconds))
    .option('--poll-since <TIMESTAMP>', 'with a first --events-url: poll events created from here (default: now)', once(nonEmpty))
    .option('--json', 'print the carrier as `carrier list --json` does')
    .action(
      action((database, cfg, code: string, options: UpdateCarrierOptions) => updateCarrierCommand(database, cfg, code, options, context)),
    );
  carrier
    .command('prefixes')
    .description('the reference prefixes by which tracking requests without carrierCode recognise the carrier')
    .argument('<CODE>')
    .argument('<PREFIXES>', 'comma-separated, e.g. MAEU,MSKU,MRKU; - for its carrier code alone')
    .action(action((database, cfg, code: string, prefixes: string) => carrierPrefixesCommand(database, cfg, code, prefixes, context)));
  carrier
    .command('formats')
    .description('the EDI formats the carrier sends besides DCSA events (docs/carriers.md "EDI")')
    .argument('<CODE>')
    .argument('<FORMATS>', 'comma-separated: x12-315, iftsta; dcsa for DCSA only')
    .option('--times <local|utc>', 'its times without a zone code: local time of the location (the default) or UTC', once(nonEmpty))
    .action(
      action((database, cfg, code: string, formats: string, options: { times?: string }) =>
        carrierFormatsCommand(database, cfg, code, formats, options, context),
      ),
    );
  carrier
    .command('enable')
    .description('accept its notifications again and poll it now (after disable)')
    .argument('<CODE>')
    .action(action((database, cfg, code: string) => enableCarrierCommand(database, cfg, code, context)));
  carrier
    .command('remove')
    .description('remove the carrier: configuration, secret, credentials and poll state go; its stored events stay')
    .argument('<CODE>')
    .action(action((database, cfg, code: string) => removeCarrierCommand(database, cfg, code, context)));
  carrier
    .command('rotate-secret')
    .description('a new notification secret; the old one keeps verifying for the overlap (default a day)')
    .argument('<CODE>')
    .option('--secret <BASE64>', 'use this secret instead of a generated one', once(nonEmpty))
    .option('--overlap <SECONDS>', 'how long the old secret still verifies: 0 (refused at once) to 604800; default 86400', once(seconds))
    .option('--json', 'print exactly {"carrierCode","notificationUrl","notificationSecret"}')
    .action(
      action((database, cfg, code: string, options: { secret?: string; overlap?: number; json?: boolean }) =>
        rotateCarrierSecretCommand(database, cfg, code, options, context),
      ),
    );
  carrier
    .command('unlinked')
    .description('stored events linked to no shipment (yet), oldest first, with what they would link by')
    .option('--carrier <CODE>', "only this carrier's", once(nonEmpty))
    .option('--limit <N>', 'at most N (default 100)', once(limit))
    .option('--json', 'one JSON array')
    .action((options: { carrier?: string; limit?: number; json?: boolean }) =>
      withDatabase((database) => listUnlinkedCommand(database, { ...options, limit: options.limit ?? 100 }, context)),
    );
  const rejected = carrier
    .command('rejected')
    .description('events a poll or a carrier notification refused, kept with their error (TT_REJECTED_EVENTS_MAX)');
  rejected
    .command('list')
    .description('kept rejected events, oldest first')
    .option('--carrier <CODE>', "only this carrier's", once(nonEmpty))
    .option('--limit <N>', 'at most N (default 100)', once(limit))
    .option('--json', 'one JSON array, each with the event as received')
    .action((options: { carrier?: string; limit?: number; json?: boolean }) =>
      withDatabase((database) => listRejectedCommand(database, { ...options, limit: options.limit ?? 100 }, context)),
    );
  rejected
    .command('replay')
    .description('validate and ingest kept events again (once the cause is fixed); those still refused stay, with their new error')
    .option('--carrier <CODE>', "only this carrier's", once(nonEmpty))
    .option('--id <ID>', 'only this kept event (repeatable)', (value: string, previous: number[] | undefined) => [
      ...(previous ?? []),
      id(value),
    ])
    .option('--limit <N>', 'at most N, oldest first (default 10000)', once(limit))
    .addHelpText(
      'after',
      '\nPrints {"replayed","eventsStored","eventsAlreadyStored","stillRejected"}; exit 1 when some are still refused.\n',
    )
    .action((options: { carrier?: string; id?: number[]; limit?: number }) =>
      withDatabase((database, cfg) => replayRejectedCommand(database, cfg, { ...options, limit: options.limit ?? 10_000 }, context)),
    );
  requireGroupCommand(rejected);

  program
    .command('poll')
    .description("poll the carriers' DCSA events endpoints without the HTTP server (see TT_CARRIER_POLLER)")
    .option('--once', 'poll every configured carrier once now, print a JSON summary and exit')
    .option('--carrier <CODE>', 'with --once: only this carrier', once(nonEmpty))
    .action(async (options: { once?: boolean; carrier?: string }, command: Command) => {
      if (options.carrier !== undefined && !options.once) command.error('--carrier needs --once');
      await withDatabase((database, cfg) => pollCommand(database, cfg, options, context));
    });
  return carrier;
}

function id(value: string): number {
  if (!/^\d{1,15}$/.test(value)) throw new InvalidArgumentError('must be the ID of a kept event (see: tracking carrier rejected list)');
  return Number(value);
}

/** `tracking carrier rejected` without its subcommand is a usage error, not a quiet help page. */
function requireGroupCommand(group: Command): void {
  group
    .usage('<command> [options]')
    .argument('[command]')
    .allowExcessArguments()
    .action((name: string | undefined) => group.error(name ? `unknown command '${name}'` : 'missing command'));
}

function seconds(value: string): number {
  if (!/^\d{1,6}$/.test(value)) throw new InvalidArgumentError('must be a whole number of seconds');
  return Number(value);
}
