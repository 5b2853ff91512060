import { lookupError, DCSA } from '../errors/errors.js';

/**
 * Relay cursor connections (docs/graphql.md, Pagination): every list that pages answers `edges { cursor node }`
 * and `pageInfo`, with `first`/`after` (and `last`/`before` where its order can be read backwards). A page is
 * read the way the list's store reads it; this turns it into the connection's shape.
 */
export interface Connection<T> {
  edges: { cursor: string; node: T }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
  totalCount?: number;
}

/** A page of items, each with the cursor that resumes after (or, read backwards, before) it. */
export function connectionOf<T>(
  items: readonly T[],
  cursorOf: (item: T, index: number) => string,
  more: { hasNextPage: boolean; hasPreviousPage: boolean },
  totalCount?: number,
): Connection<T> {
  const edges = items.map((node, i) => ({ cursor: cursorOf(node, i), node }));
  return {
    edges,
    pageInfo: { ...more, startCursor: edges[0]?.cursor ?? null, endCursor: edges.at(-1)?.cursor ?? null },
    ...(totalCount === undefined ? {} : { totalCount }),
  };
}

/** The DCSA invalidParameter refusal of a connection argument (400 on REST, BAD_USER_INPUT on GraphQL). */
export function badConnectionArgument(property: string, message: string) {
  return lookupError('BAD_USER_INPUT', message, [{ ...DCSA.invalidParameter, property, errorCodeMessage: message }]);
}

/** Which way a connection is read: `first`/`after` forward, `last`/`before` backward (never both). */
export function pagingDirection(
  args: { first?: number | null; after?: string | null; last?: number | null; before?: string | null },
  defaultSize: number,
  maxSize: number,
): { forward: true; size: number; after: string | null } | { forward: false; size: number; before: string | null } {
  const backward = args.last != null || args.before != null;
  if (backward && (args.first != null || args.after != null)) {
    throw badConnectionArgument('last', 'page forward (first, after) or backward (last, before), not both');
  }
  const size = (backward ? args.last : args.first) ?? defaultSize;
  if (!Number.isInteger(size) || size < 1 || size > maxSize) {
    throw badConnectionArgument(backward ? 'last' : 'first', `${backward ? 'last' : 'first'} must be 1 to ${maxSize}`);
  }
  return backward ? { forward: false, size, before: args.before ?? null } : { forward: true, size, after: args.after ?? null };
}
