import { ClientStore } from '../auth/client-store.js';
import { resolvePeppers } from '../auth/pepper.js';
import { CarrierStore } from '../carriers/carrier-store.js';
import type { Config } from '../config/config.js';
import type { Database } from '../db/connect.js';
import { rewrapSubscriptionSecrets, webhookSecretBox } from '../push/subscription-service.js';
import { EXIT_OK, EXIT_USAGE, type CommandIo } from './client-commands.js';

/**
 * `tracking keys rewrap` (docs/operating.md "Rotating TT_SECRET_PEPPER"): with the new
 * pepper in TT_SECRET_PEPPER and the old one in TT_PREVIOUS_SECRET_PEPPER,
 * re-seals every carrier notification secret, carrier credential and webhook
 * signing secret under the new pepper, and lists the API clients whose
 * secret is not yet hashed under it (each moves at its next token request;
 * a client that gets none must have its secret rotated before the old
 * pepper goes). Idempotent: run it again at any time.
 *
 * Exit 0 when nothing depends on the old pepper any more (it may be
 * removed), 1 when something still does (the report says what).
 */
export async function rewrapKeysCommand(database: Database, config: Config, options: { json?: boolean }, io: CommandIo): Promise<number> {
  if (!config.previousSecretPepper) {
    io.stderr.write('tracking keys rewrap: set TT_PREVIOUS_SECRET_PEPPER to the old pepper (and TT_SECRET_PEPPER to the new one) first\n');
    return EXIT_USAGE;
  }
  const peppers = await resolvePeppers(database.db, config);
  const carriers = await new CarrierStore(database.db, peppers, config).rewrap();
  const subscriptions = await rewrapSubscriptionSecrets(database.db, webhookSecretBox(peppers));
  const clients = (await (await ClientStore.open(database.db, config)).listClients()).filter(
    (c) => c.secretPepper !== 'current' && c.disabledAt === null,
  );
  const report = {
    carrierSecrets: carriers,
    webhookSecrets: subscriptions,
    clientsNotYetMoved: clients.map((c) => c.clientId),
  };
  const done = clients.length === 0 && carriers.unreadable.length === 0 && subscriptions.unreadable.length === 0;
  if (options.json) {
    io.stdout.write(`${JSON.stringify({ ...report, done })}\n`);
    return done ? EXIT_OK : 1;
  }
  const lines = [
    `Carrier secrets and credentials: ${carriers.resealed} re-sealed under the new pepper, ${carriers.current} already under it.`,
    `Webhook signing secrets: ${subscriptions.resealed} re-sealed, ${subscriptions.current} already under it.`,
    ...(carriers.unreadable.length > 0
      ? [`Carriers neither pepper opens (rotate their secret, give their credentials again): ${carriers.unreadable.join(', ')}`]
      : []),
    ...(subscriptions.unreadable.length > 0
      ? [`Subscriptions neither pepper opens (their owners rotate the secret): ${subscriptions.unreadable.join(', ')}`]
      : []),
    clients.length === 0
      ? 'Every enabled API client secret is under the new pepper.'
      : `API clients whose secret is not yet under the new pepper (moved at their next token request; ` +
        `or tracking client rotate-secret): ${clients.map((c) => c.clientId).join(', ')}`,
    done
      ? 'Nothing depends on the old pepper any more: remove TT_PREVIOUS_SECRET_PEPPER.'
      : 'Keep TT_PREVIOUS_SECRET_PEPPER until the above is done, then run this again.',
  ];
  io.stdout.write(`${lines.join('\n')}\n`);
  return done ? EXIT_OK : 1;
}
