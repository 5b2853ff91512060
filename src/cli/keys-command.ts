import { randomBytes } from 'node:crypto';
import { generateSigningJwk } from '../auth/signing-keys.js';
import { EXIT_OK, type CommandIo } from './client-commands.js';

/**
 * `tracking keys generate`: production secrets, made locally (no database,
 * no configuration): a new ES256 (P-256) private JWK for TT_SIGNING_KEY,
 * with its RFC 7638 thumbprint as kid, in the form src/auth/signing-keys.ts
 * imports; and 256 random bits for TT_SECRET_PEPPER.
 *
 * stdout: `TT_SIGNING_KEY='…'` and `TT_SECRET_PEPPER=…` lines for an env
 * file (a JWK holds no single quote), or one JSON object with --json;
 * the advice goes to stderr so stdout can be redirected as it is.
 */
export async function generateKeysCommand(options: { json?: boolean }, io: CommandIo): Promise<number> {
  const signingKey = JSON.stringify(await generateSigningJwk());
  const pepper = randomBytes(32).toString('base64url');
  if (options.json) {
    io.stdout.write(JSON.stringify({ TT_SIGNING_KEY: signingKey, TT_SECRET_PEPPER: pepper }) + '\n');
  } else {
    io.stdout.write(`TT_SIGNING_KEY='${signingKey}'\nTT_SECRET_PEPPER=${pepper}\n`);
  }
  io.stderr.write(
    'Keep these in your secret store, never in the repository. Changing TT_SECRET_PEPPER invalidates every\n' +
      'client secret (rotate them all); changing TT_SIGNING_KEY invalidates tokens already issued.\n',
  );
  return EXIT_OK;
}
