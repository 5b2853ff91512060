import { GraphQLError } from 'graphql';
import { toUtcIso } from '../../domain/timestamps.js';
import { builder } from '../builder.js';

/** The canonical form every stored timestamp has (`toUtcIso`). */
const CANONICAL_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * Every timestamp of the spec ("ISO 8601 UTC strings"). Output passes the
 * stored canonical string through unchanged, so REST (the same executor)
 * keeps its bytes; anything else is a bug upstream and fails loudly rather
 * than being reformatted. Input accepts any ISO 8601 offset and normalises
 * it to UTC, as ingest does.
 */
builder.scalarType('DateTime', {
  description:
    'A point in time: ISO 8601 in UTC with millisecond precision and the Z suffix, e.g. 2026-11-20T12:00:00.000Z. ' +
    'Inputs may carry any UTC offset (e.g. 2026-11-20T13:00:00+01:00).',
  specifiedByURL: 'https://scalars.graphql.org/andimarek/date-time',
  serialize: (value) => {
    if (typeof value === 'string' && CANONICAL_UTC.test(value)) return value;
    throw new GraphQLError(`DateTime cannot represent ${JSON.stringify(value)}: not a canonical UTC timestamp`);
  },
  parseValue: (value) => {
    const canonical = typeof value === 'string' ? toUtcIso(value) : null;
    if (canonical === null) {
      throw new GraphQLError(`DateTime must be an ISO 8601 timestamp with a UTC offset, got ${JSON.stringify(value)}`);
    }
    return canonical;
  },
});
