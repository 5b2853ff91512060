import { useDeferStream } from '@graphql-yoga/plugin-defer-stream';
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { usesIncrementalDelivery } from '../executor/incremental-delivery.js';

/** Media types that carry an answer in parts (Yoga's multipart/mixed and SSE result processors). */
const INCREMENTAL_TYPES = /(^|[,\s])(multipart\/mixed|text\/event-stream|\*\/\*|multipart\/\*|text\/\*)(\s*[;,]|\s*$)/i;

/**
 * `@defer` and `@stream` on /graphql (docs/graphql.md, @defer and @stream): Yoga's plugin (its validation rules;
 * the directives themselves are in the schema, src/graphql/schema/index.ts), and a clear refusal for a client
 * that sends them but accepts only JSON, which Yoga would answer with an empty 406.
 */
export function useIncrementalDelivery(): Plugin[] {
  return [
    useDeferStream(),
    {
      onExecute({ args, setResultAndStopExecution }) {
        const accept = (args.contextValue as { request?: Request }).request?.headers.get('accept');
        if (!accept || INCREMENTAL_TYPES.test(accept) || !usesIncrementalDelivery(args.document)) return;
        setResultAndStopExecution({
          errors: [
            new GraphQLError(
              'This document uses @defer or @stream, whose answer comes in parts: send Accept: multipart/mixed or text/event-stream, or drop the directives.',
              { extensions: { code: 'NOT_ACCEPTABLE', http: { status: 406 } } },
            ),
          ],
        });
      },
    },
  ];
}
