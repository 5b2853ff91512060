import type { Plugin } from '@envelop/core';
import type { DocumentNode, GraphQLError } from 'graphql';

/**
 * Parse and validation results by document text, for the executor's own runs (the REST routes' and push
 * delivery's fixed documents): after the first run of a document, parsing and validating it are lookups, while
 * every plugin still sees both phases (metrics label the operation at parse; compiled execution notes the
 * validated document). Yoga keeps the same cache for /graphql. Bounded: least recently used out first.
 */
export function useDocumentCache(maxDocuments = 100): Plugin {
  const documents = new Map<string, DocumentNode>();
  const validations = new WeakMap<DocumentNode, readonly GraphQLError[]>();
  return {
    onParse({ params, setParsedDocument }) {
      const source = typeof params.source === 'string' ? params.source : params.source.body;
      const cached = documents.get(source);
      if (cached) {
        documents.delete(source);
        documents.set(source, cached);
        setParsedDocument(cached);
        return undefined;
      }
      return ({ result }) => {
        if (!result || result instanceof Error || !('kind' in result)) return;
        documents.set(source, result);
        if (documents.size > maxDocuments) documents.delete(documents.keys().next().value as string);
      };
    },
    onValidate({ params, setResult }) {
      const cached = validations.get(params.documentAST);
      if (cached) {
        setResult(cached);
        return undefined;
      }
      return ({ result }) => {
        validations.set(params.documentAST, result as readonly GraphQLError[]);
      };
    },
  };
}
