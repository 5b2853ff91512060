import { costLimitPlugin } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesPlugin } from '@escape.tech/graphql-armor-max-directives';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import type { GraphQLArmorRejectCallback } from '@escape.tech/graphql-armor-types';
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { GraphQLLimits } from '../config/config.js';

/**
 * Bounds on GraphQL documents (docs/architecture.md, Limits and failure), with GraphQL Armor's
 * plugins: tokens while parsing, then aliases, depth, directives and cost
 * as validation rules. Yoga validates before it builds the context and
 * executes, so a refused document is never authenticated, compiled
 * (use-compiled-execution.ts) or run: a 1,000-alias full-snapshot lookup
 * (2.5 MB) is refused at its 1,001st token, tens of milliseconds after it
 * arrives (mostly reading the body), where compiling it held the event loop
 * for 40 to 120 s.
 *
 * A refusal is a 400 whose GraphQL error says which limit and by how much
 * (Armor's wording, without its "Syntax Error:" prefix), with
 * `extensions.code` GRAPHQL_LIMIT_EXCEEDED; the correlation id is added like
 * on every error (use-correlation-id.ts).
 *
 * Also turns a parser or validator stack overflow (a document nested deeper
 * than the stack, possible only with a raised TT_GRAPHQL_MAX_TOKENS) into
 * that 400 instead of an unexpected 500.
 */
export function useGraphQLLimits(limits: GraphQLLimits): Plugin[] {
  return [
    // Armor's parser counts tokens as the lexer hands them out, so it stops at
    // the limit before the recursive descent gets deep.
    maxTokensPlugin({ n: limits.maxTokens, onReject: [rejectWhileParsing] }),
    useStackOverflowGuard(),
    maxAliasesPlugin({ n: limits.maxAliases, ...reportInValidation }),
    maxDepthPlugin({ n: limits.maxDepth, ...reportInValidation }),
    maxDirectivesPlugin({ n: limits.maxDirectives, ...reportInValidation }),
    costLimitPlugin({ maxCost: limits.maxCost, ...reportInValidation }),
    useRefusalStatus(),
  ];
}

export const LIMIT_EXCEEDED = 'GRAPHQL_LIMIT_EXCEEDED';

function limitError(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: LIMIT_EXCEEDED, http: { status: 400 } } });
}

/** The parser stops by throwing: the rejection callback throws ours instead of Armor's. */
const rejectWhileParsing: GraphQLArmorRejectCallback = (_context, error) => {
  throw limitError(withoutArmorPrefix(error.message));
};

/**
 * Validation limits are reported as validation errors rather than thrown:
 * Yoga then caches them with the document's other validation errors, and the
 * client sees every problem at once.
 */
const reportInValidation = {
  propagateOnRejection: false,
  onReject: [
    ((context, error) => {
      context?.reportError(limitError(withoutArmorPrefix(error.message)));
    }) satisfies GraphQLArmorRejectCallback,
  ],
};

/** Armor prefixes every refusal with "Syntax Error: ", even a cost or depth found valid syntax. */
function withoutArmorPrefix(message: string): string {
  return message.replace(/^Syntax Error: /, '');
}

/**
 * Yoga marks parse and validation errors as the GraphQL-over-HTTP spec's
 * (`http.spec`), which an `application/json` answer sends with 200. A refused
 * document is the client's error whatever it accepts: 400, set on the result
 * (where Yoga reads it first and never prints it).
 */
function useRefusalStatus(): Plugin {
  return {
    onResultProcess({ result, setResult }) {
      if (Array.isArray(result) || !('errors' in result)) return;
      if (!result.errors?.some((e) => e.extensions?.code === LIMIT_EXCEEDED)) return;
      const extensions = result.extensions as { http?: Record<string, unknown> } | undefined;
      setResult({ ...result, extensions: { ...extensions, http: { ...extensions?.http, status: 400 } } });
    },
  };
}

const TOO_DEEP = 'The document is nested too deeply.';

/**
 * graphql-js parses and validates recursively: a deep enough document ends
 * in a RangeError, which Yoga would answer as an unexpected 500. Runs after
 * the token limit's onParse, so it wraps that parser.
 */
function useStackOverflowGuard(): Plugin {
  return {
    onParse({ parseFn, setParseFn }) {
      setParseFn((source, options) => {
        try {
          return parseFn(source, options);
        } catch (err) {
          if (err instanceof RangeError) throw limitError(TOO_DEEP);
          throw err;
        }
      });
    },
    onValidate({ validateFn, setValidationFn }) {
      setValidationFn((...args) => {
        try {
          return validateFn(...args);
        } catch (err) {
          if (err instanceof RangeError) return [limitError(TOO_DEEP)];
          throw err;
        }
      });
    },
  };
}
