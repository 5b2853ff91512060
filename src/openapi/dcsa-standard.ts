import { correctedStandard, reachableSchemas, toJsonSchema } from '../domain/dcsa/dcsa-standard.js';
import type { JsonSchema } from './rest-schemas.js';

/** The 2.2 schemas `roots` need, as OpenAPI 3.1 components named `prefix + name`. */
export function dcsaComponents(roots: readonly string[], prefix: string): Record<string, JsonSchema> {
  const standard = correctedStandard();
  return Object.fromEntries(
    reachableSchemas(standard, roots).map((name) => [
      `${prefix}${name}`,
      toJsonSchema(standard.components.schemas[name], `#/components/schemas/${prefix}`) as JsonSchema,
    ]),
  );
}
