import { lexicographicSortSchema, printSchema } from 'graphql';
import { schema } from './schema/index.js';

/** The SDL of the Pothos schema, sorted so that a change's diff shows only what changed. */
export function renderSchema(): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
