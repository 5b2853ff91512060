import { TypeInfo, visit, visitWithTypeInfo, BREAK, type DocumentNode, type GraphQLSchema } from 'graphql';

/**
 * Fields whose answer moves with time while the shipment's version stays (docs/predicted-arrival.md, How it is
 * served): `ShipmentTracking.predictedArrival`, a prediction at the request's time. They declare it in their
 * extensions (`extensions: { [MOVES_WITH_TIME]: true }`), and what keys answers on the version alone leaves a
 * document that selects one alone: the conditional read (an entity tag of the version would answer 304 while the
 * prediction moved) and the kept rendering (a text kept for the version would serve a stale prediction; where the
 * selection allows, the rest of it is kept and the prediction written in per request: prediction-splice.ts).
 */
export const MOVES_WITH_TIME = 'movesWithTime';

const bySchema = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, boolean>>();

/** Whether any operation of the document selects a field that moves with time; computed once per document. */
export function selectsMovingField(schema: GraphQLSchema, document: DocumentNode): boolean {
  let known = bySchema.get(schema);
  if (!known) bySchema.set(schema, (known = new WeakMap()));
  const cached = known.get(document);
  if (cached !== undefined) return cached;
  let found = false;
  const typeInfo = new TypeInfo(schema);
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field() {
        if (typeInfo.getFieldDef()?.extensions?.[MOVES_WITH_TIME] === true) {
          found = true;
          return BREAK;
        }
        return undefined;
      },
    }),
  );
  known.set(document, found);
  return found;
}
