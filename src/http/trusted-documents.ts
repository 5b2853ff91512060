import { createHash } from 'node:crypto';
import { OWN_DOCUMENTS } from '../executor/own-documents.js';
import { graphiqlDefaultDocument } from './graphiql/default-document.js';

/** The SHA-256 hash (hex) of a document's text: its key in a manifest and in `extensions.persistedQuery`. */
export function documentHash(document: string): string {
  return createHash('sha256').update(document).digest('hex');
}

/**
 * The service's own part of a trusted-documents manifest (docs/graphql.md, Persisted operations): the fixed
 * documents of the REST routes, webhook and notification bodies, and both of GraphiQL's default documents (with and
 * without the sandbox token's comments), keyed by hash and in hash order, so the printed file only changes when a
 * document does. `npm run trusted-documents` writes it to trusted-documents.json, and a test fails when that file is
 * stale. REST routes and push never need it (they run their documents in-process, not through /graphql); GraphiQL
 * sends its default document as text, which trusted mode runs when its hash is in the manifest.
 */
export function serviceTrustedDocuments(): Record<string, string> {
  const documents = [
    ...OWN_DOCUMENTS.map((d) => d.query),
    graphiqlDefaultDocument({ withDemoToken: true }),
    graphiqlDefaultDocument({ withDemoToken: false }),
  ];
  const entries = documents.map((d) => [documentHash(d), d] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries);
}

/** The manifest as committed: two-space JSON and a final newline. */
export function renderTrustedDocuments(): string {
  return `${JSON.stringify(serviceTrustedDocuments(), null, 2)}\n`;
}
