/**
 * Writes clients/typescript/src/openapi.ts, the types of the typed client, with openapi-typescript from the
 * OpenAPI document the service serves on /openapi.json. `--check` exits 1 when the committed file is stale
 * (test/typescript-client.test.ts checks it too, in `npm test`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { buildOpenApiDocument } from '../src/openapi/openapi-document.js';

/** The generated source for the document the sandbox serves (the base address does not reach the types). */
export async function clientTypes(): Promise<string> {
  const document = buildOpenApiDocument({ baseUrl: 'http://localhost:4000', environment: 'sandbox' });
  const ast = await openapiTS(JSON.parse(JSON.stringify(document)) as Parameters<typeof openapiTS>[0]);
  return `/* Generated from /openapi.json by \`npm run -s client:types\`; do not edit. */\n\n${astToString(ast)}`;
}

const target = fileURLToPath(new URL('../clients/typescript/src/openapi.ts', import.meta.url));
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const source = await clientTypes();
  if (process.argv.includes('--check')) {
    if (readFileSync(target, 'utf8') !== source) {
      console.error('clients/typescript/src/openapi.ts is stale: run `npm run -s client:types` and commit the result');
      process.exit(1);
    }
    console.log('clients/typescript/src/openapi.ts is up to date');
  } else {
    writeFileSync(target, source);
    console.log(`wrote ${target}`);
  }
}
