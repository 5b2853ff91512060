/**
 * Prints the committed trusted-documents.json (the service's own GraphQL documents by SHA-256 hash; see
 * docs/graphql.md, Persisted operations). `--check` exits 1 when the committed file is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderTrustedDocuments } from '../src/http/trusted-documents.js';

const target = fileURLToPath(new URL('../trusted-documents.json', import.meta.url));
const printed = renderTrustedDocuments();
if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    // missing: stale
  }
  if (current !== printed) {
    console.error('trusted-documents.json is stale: run `npm run trusted-documents` and commit the result');
    process.exit(1);
  }
  console.log('trusted-documents.json is up to date');
} else {
  writeFileSync(target, printed);
  console.log(`wrote ${target}`);
}
