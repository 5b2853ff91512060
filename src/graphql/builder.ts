import SchemaBuilder from '@pothos/core';
import ValidationPlugin from '@pothos/plugin-validation';
import { DCSA, lookupError, type DetailedError } from '../service/errors.js';
import type { GraphQLContext } from './context.js';

/**
 * The Pothos builder: context type, scalar shapes and plugins only; types
 * live in `schema/`, one file per type family (Pothos app layout).
 */
export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  DefaultFieldNullability: false;
  Scalars: {
    /** Canonical UTC timestamps, `YYYY-MM-DDTHH:mm:ss.sssZ` (see `toUtcIso`), in and out. */
    DateTime: { Input: string; Output: string };
  };
}>({
  plugins: [ValidationPlugin],
  defaultFieldNullability: false,
  validation: {
    // Validation failures become the same BAD_USER_INPUT error, with one DCSA
    // detailed error per issue, on GraphQL and (through the REST mapping) on REST.
    validationError: (failure, args) => {
      const details: DetailedError[] = failure.issues.map((issue) => {
        const keys = (issue.path ?? []).map((p) => (typeof p === 'object' && p !== null && 'key' in p ? p.key : p));
        // property: the field the value belongs to (DCSA); jsonPath: where exactly, array positions included.
        const property = keys
          .filter((k) => typeof k !== 'number')
          .map(String)
          .join('.');
        const jsonPath = `$${keys.map((k) => (typeof k === 'number' ? `[${k}]` : `.${String(k)}`)).join('')}`;
        const raw = property ? args[property] : undefined;
        return {
          ...DCSA.invalidParameter,
          ...(property ? { property, jsonPath } : {}),
          ...(typeof raw === 'string' ? { value: raw.slice(0, 500) } : {}),
          errorCodeMessage: issue.message.slice(0, 200),
        };
      });
      return lookupError('BAD_USER_INPUT', details.map((d) => d.errorCodeMessage).join('; '), details);
    },
  },
});
