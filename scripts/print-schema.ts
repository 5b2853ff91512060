/**
 * Prints the committed schema.graphql from the Pothos schema (sorted, so the
 * diff of a change shows only what changed). `--check` exits 1 when the
 * committed file is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderSchema } from '../src/graphql/print-schema.js';

const target = fileURLToPath(new URL('../schema.graphql', import.meta.url));
const printed = renderSchema();
if (process.argv.includes('--check')) {
  const current = readFileSync(target, 'utf8');
  if (current !== printed) {
    console.error('schema.graphql is stale: run `npm run schema:print` and commit the result');
    process.exit(1);
  }
  console.log('schema.graphql is up to date');
} else {
  writeFileSync(target, printed);
  console.log(`wrote ${target}`);
}
