import { builder } from './builder.js';

/**
 * A GraphQL enum from a code list (code → meaning), so that the enum's
 * values and their descriptions come from the list ingest validates with.
 * The enum's TypeScript shape is plain string: stored values reach the
 * resolvers through JSON columns, typed as strings, and were checked
 * against the same list at ingest.
 */
export function codeListEnum(name: string, description: string, list: Readonly<Record<string, string>>) {
  const values: Record<string, { description: string }> = {};
  for (const [code, meaning] of Object.entries(list)) values[code] = { description: meaning };
  return builder.enumType(name, { description, values });
}
