/**
 * Converts the DCSA Track & Trace 2.2 OpenAPI (tnt_v2.2.0_resolved.yaml, as DCSA publishes it) into the JSON
 * the service ships (src/domain/dcsa/tnt-v2.2.0.json): the runtime reads no YAML and the standard's folder is
 * not part of the image. Usage: `npx tsx scripts/vendor-dcsa-standard.ts PATH/tnt_v2.2.0_resolved.yaml`.
 *
 * Everything is kept as published, but for what JSON cannot hold: the `secret` example is a YAML `!!binary`
 * value, read here as the Base64 text it is (known issue 3 of the standard's KNOWN-ISSUES.md). The other known
 * issues are corrected when the service loads the file (src/domain/dcsa/dcsa-standard.ts), each by name.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const source = process.argv[2];
if (!source) {
  console.error('usage: npx tsx scripts/vendor-dcsa-standard.ts PATH/tnt_v2.2.0_resolved.yaml');
  process.exit(2);
}
const binaryAsBase64 = {
  tag: 'tag:yaml.org,2002:binary',
  resolve: (text: string) => text.replace(/\s+/g, ''),
};
const standard = parse(readFileSync(source, 'utf8'), { customTags: [binaryAsBase64] }) as unknown;
const target = fileURLToPath(new URL('../src/domain/dcsa/tnt-v2.2.0.json', import.meta.url));
writeFileSync(target, `${JSON.stringify(standard, null, 2)}\n`);
console.log(`wrote ${target}`);
