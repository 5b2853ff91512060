import type { GraphQLError } from 'graphql';
import { selectionKey } from '../domain/conditional-read.js';
import { omitAbsent } from '../http-messages/rest-body.js';
import type { InternalContext, RenderedRead } from './context.js';
import type { Executor } from './executor.js';
import { runDocument } from './run-document.js';
import { SHIPMENT_DOCUMENT } from './shipment-document.js';

/**
 * The lookup document rendered as REST and push send it: a Transmission whose
 * optional absent fields are omitted (http-messages/rest-body.ts), as JSON text.
 *
 * Most lookups and deliveries are of a shipment that has not changed since the
 * last one. Its `shipmentTracking` (a few thousand fields, about 20 KB) would
 * then be walked, filtered and serialized again to the same text, a third of a
 * lookup's cost. So the text is kept on the shipment's snapshot, which is
 * exact to one version (src/store/shipments/snapshot-cache.ts): the next run of the
 * document for that version finds it in the lookup's resolver, and the field
 * is answered with it instead of being walked (RenderedRead). Everything else
 * runs as before: the document goes through the executor (authentication,
 * validation, limits, quotas, the tenant filter and the version read), and the
 * header is the request's own.
 *
 * A version no process has rendered yet is answered the same way from the text stored with the snapshot when
 * it was written (src/domain/rest-tracking.ts computes the same text from the stored state, and
 * test/rest-tracking.test.ts holds the two equal): a first lookup then reads one column and parses nothing.
 * Where no such text is stored (rows written before migration 020 and not yet backfilled), the field is
 * walked as before.
 *
 * The kept text is a function of the snapshot alone: no field under
 * `shipmentTracking` reads the caller or the clock (the header does, and is
 * never kept), so callers with different grants share it safely.
 */

/** Names REST's rendering: the document's selection (with the rendering format) and the omitted nulls. */
export const REST_RENDERING = `rest-json:${selectionKey(SHIPMENT_DOCUMENT)}`;

export type ShipmentRendering =
  /** The conditional read matched (context.conditional.notModified): no body. */
  | { kind: 'not-modified' }
  | { kind: 'failed'; error: GraphQLError | undefined }
  /** The header, nulls omitted, and `shipmentTracking` as JSON (UTF-8 bytes, kept or stored: see ShipmentSnapshot.rendering). */
  | { kind: 'rendered'; header: Record<string, unknown>; tracking: Buffer };

export async function renderShipment(
  executor: Executor,
  input: { request: Request; variables: Record<string, unknown>; context: Omit<InternalContext, 'rendered'> },
): Promise<ShipmentRendering> {
  // The document's shipmentTracking is REST's stored rendering (src/domain/rest-tracking.ts; test/rest-tracking.test.ts).
  const rendered: RenderedRead = { name: REST_RENDERING, stored: true };
  const result = await runDocument<{ shipment: { transmissionHeader: unknown; shipmentTracking: unknown } | null }>(executor, {
    request: input.request,
    query: SHIPMENT_DOCUMENT,
    operationName: 'RestShipmentLookup',
    variables: input.variables,
    context: { ...input.context, rendered },
  });
  if (input.context.conditional?.notModified) return { kind: 'not-modified' };
  const error = result.errors?.[0];
  if (error) return { kind: 'failed', error };
  if (rendered.hit) {
    return { kind: 'rendered', header: omitAbsent(rendered.hit.header) as Record<string, unknown>, tracking: rendered.hit.tracking };
  }
  const shipment = result.data?.shipment;
  if (!shipment) return { kind: 'failed', error: undefined };
  const transmission = omitAbsent(shipment) as { transmissionHeader: Record<string, unknown>; shipmentTracking: unknown };
  const tracking = Buffer.from(JSON.stringify(transmission.shipmentTracking), 'utf8');
  rendered.keep?.(tracking);
  return { kind: 'rendered', header: transmission.transmissionHeader, tracking };
}

/** A Transmission's JSON text from its parts: the one place that writes its shape. */
export function transmissionJson(header: Record<string, unknown>, tracking: Buffer): string {
  return transmissionBytes(header, tracking).toString('utf8');
}

const TRACKING_END = Buffer.from('}', 'utf8');

/**
 * A Transmission's JSON as UTF-8 bytes, for REST to write as they are: the rendering is copied once, and never
 * becomes a string in the V8 heap.
 */
export function transmissionBytes(header: Record<string, unknown>, tracking: Buffer): Buffer {
  const head = Buffer.from(`{"transmissionHeader":${JSON.stringify(header)},"shipmentTracking":`, 'utf8');
  return Buffer.concat([head, tracking, TRACKING_END], head.byteLength + tracking.byteLength + TRACKING_END.byteLength);
}
