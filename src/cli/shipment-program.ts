import type { Command } from 'commander';
import { nonEmpty, note, once } from './arguments.js';
import { lazy, type CliContext, type WithDatabase } from './cli-context.js';

// Loaded when a command runs, never for its help or an argument error (see lazy).
const accessCommands = () => import('./shipment-access-commands.js');
const grantShipmentAccessCommand = lazy(accessCommands, 'grantShipmentAccessCommand');
const listShipmentAccountsCommand = lazy(accessCommands, 'listShipmentAccountsCommand');
const revokeShipmentAccessCommand = lazy(accessCommands, 'revokeShipmentAccessCommand');

/**
 * `tracking shipment …` on the program (src/cli/program.ts keeps only the
 * call): which accounts see a shipment, named by its carrier code and
 * carrier booking reference. Returns the `shipment` group.
 */
export function registerShipmentCommands(program: Command, context: CliContext, withDatabase: WithDatabase): Command {
  const shipment = program
    .command('shipment')
    .description("a shipment's accounts: who sees it")
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  tracking shipment accounts MAEU MAEU-240000001 [--json]\n' +
        '  tracking shipment revoke MAEU MAEU-240000001 --account acme --reason "customer changed forwarder"\n' +
        '  tracking shipment grant MAEU MAEU-240000001 --account acme\n',
    );
  const key = (carrierCode: string, carrierBookingReference: string) => ({ carrierCode, carrierBookingReference });
  shipment
    .command('accounts')
    .description('the accounts whose clients see the shipment, and the revoked ones')
    .argument('<CARRIER>', 'carrier code')
    .argument('<BOOKING>', 'carrier booking reference')
    .option('--json', 'one JSON object {"accounts","revoked"}')
    .action((carrier: string, booking: string, options: { json?: boolean }) =>
      withDatabase((database) => listShipmentAccountsCommand(database, key(carrier, booking), options, context)),
    );
  shipment
    .command('revoke')
    .description(
      "take an account's access back: its clients' lookups answer 404, their subscriptions on it are disabled; ingest never grants it again",
    )
    .argument('<CARRIER>', 'carrier code')
    .argument('<BOOKING>', 'carrier booking reference')
    .requiredOption('--account <ACCOUNT>', 'the account', once(nonEmpty))
    .requiredOption('--reason <TEXT>', 'why (at most 1000 characters), given as the subscriptions disabledReason', once(note))
    .action((carrier: string, booking: string, options: { account: string; reason: string }) =>
      withDatabase((database) => revokeShipmentAccessCommand(database, key(carrier, booking), options, context)),
    );
  shipment
    .command('grant')
    .description('let an account see the shipment (lifts a revocation)')
    .argument('<CARRIER>', 'carrier code')
    .argument('<BOOKING>', 'carrier booking reference')
    .requiredOption('--account <ACCOUNT>', 'the account', once(nonEmpty))
    .action((carrier: string, booking: string, options: { account: string }) =>
      withDatabase((database) => grantShipmentAccessCommand(database, key(carrier, booking), options, context)),
    );
  return shipment;
}
