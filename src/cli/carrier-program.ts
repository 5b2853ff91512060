import { type Command, InvalidArgumentError } from 'commander';
import { CarrierInputError } from '../carriers/carrier-config.js';
import {
  addCarrierCommand,
  disableCarrierCommand,
  listCarriersCommand,
  rotateCarrierSecretCommand,
  type AddCarrierOptions,
} from './carrier-commands.js';
import { pollCommand } from './poll-command.js';
import { nonEmpty, once } from './arguments.js';
import { actionWithUsageErrors, type CliContext, type WithDatabase } from './cli-context.js';

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
        '  tracking carrier disable MAEU\n' +
        '  tracking carrier rotate-secret MAEU [--json]\n',
    );
  // The store's input checks are usage errors of the command.
  const action = actionWithUsageErrors(withDatabase, CarrierInputError);

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
    .command('rotate-secret')
    .description('a new notification secret; the old one stops verifying at once')
    .argument('<CODE>')
    .option('--secret <BASE64>', 'use this secret instead of a generated one', once(nonEmpty))
    .option('--json', 'print exactly {"carrierCode","notificationUrl","notificationSecret"}')
    .action(
      action((database, cfg, code: string, options: { secret?: string; json?: boolean }) =>
        rotateCarrierSecretCommand(database, cfg, code, options, context),
      ),
    );

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

function seconds(value: string): number {
  if (!/^\d{1,6}$/.test(value)) throw new InvalidArgumentError('must be a whole number of seconds');
  return Number(value);
}
