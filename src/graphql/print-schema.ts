import { lexicographicSortSchema, printSchema } from 'graphql';
import { schema } from './schema/index.js';

/**
 * The SDL of the Pothos schema, sorted. The explicit `schema { ... }` block
 * matters: the spec names a type `Subscription` (push roadmap), and without
 * the block SDL tools would take it for the subscription root.
 */
export function renderSchema(): string {
  const sdl = printSchema(lexicographicSortSchema(schema));
  const header = 'schema {\n  query: Query\n  mutation: Mutation\n}\n\n';
  return sdl.startsWith('schema {') ? `${sdl}\n` : `${header}${sdl}\n`;
}
