import { BREAK, visit, type DocumentNode } from 'graphql';

const INCREMENTAL = new Set(['defer', 'stream']);
const found = new WeakMap<DocumentNode, boolean>();

/**
 * Whether the document uses `@defer` or `@stream` anywhere, its fragments included: its answer may come in parts
 * (docs/graphql.md, @defer and @stream). Once per parsed document.
 */
export function usesIncrementalDelivery(document: DocumentNode): boolean {
  let uses = found.get(document);
  if (uses === undefined) {
    uses = false;
    visit(document, {
      Directive(node) {
        if (!INCREMENTAL.has(node.name.value)) return undefined;
        uses = true;
        return BREAK;
      },
    });
    found.set(document, uses);
  }
  return uses;
}
