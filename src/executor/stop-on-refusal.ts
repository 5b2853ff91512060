import type { GraphQLError } from 'graphql';

/** A plugin's refusal of an operation: an error, none (it may run), or a promise of either. */
export type Refusal = GraphQLError | undefined | Promise<GraphQLError | undefined>;

/**
 * Ends the execution with the refusal's error, if any: at once when the refusal is known at once (a poll's usual
 * case, no promise for envelop to wait for), else once it is. An onExecute or onSubscribe hook's return value.
 */
export function stopOnRefusal(refusal: Refusal, stop: (result: { errors: GraphQLError[] }) => void): Promise<void> | undefined {
  if (refusal instanceof Promise) {
    return refusal.then((error) => {
      if (error) stop({ errors: [error] });
    });
  }
  if (refusal) stop({ errors: [refusal] });
  return undefined;
}
