/**
 * Writes docs/configuration.md from the declared variables (src/config/variables.ts). `--check` exits 1 when
 * the committed page is stale (test/config-doc.test.ts checks it too, in `npm test`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { configurationPage } from '../src/config/variables.js';

const target = fileURLToPath(new URL('../docs/configuration.md', import.meta.url));
const page = configurationPage();
if (process.argv.includes('--check')) {
  if (readFileSync(target, 'utf8') !== page) {
    console.error('docs/configuration.md is stale: run `npm run -s docs:config` and commit the result');
    process.exit(1);
  }
  console.log('docs/configuration.md is up to date');
} else {
  writeFileSync(target, page);
  console.log(`wrote ${target}`);
}
