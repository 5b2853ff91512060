import type { Kysely } from 'kysely';
import { READ_SCOPE } from '../auth/scopes.js';
import type { DatabaseSchema } from '../db/schema.js';
import { readErrorCode } from '../errors/errors.js';
import type { PushTransmission } from '../executor/context.js';
import { renderShipment, transmissionJson } from '../executor/shipment-rendering.js';
import { shipmentKeysById } from '../store/shipments/shipment-lookup.js';
import { shipmentIdentifiers } from '../store/access/access-changes.js';
import type { ClaimedDelivery } from '../store/push/delivery-queue.js';
import type { Executor } from '../executor/executor.js';

/**
 * The body of a webhook delivery: a Transmission as GET /v2/shipments returns
 * it (docs/architecture.md, Push), produced by the same document and executor, as the
 * subscription's owner (so the tenant rule holds at every send), with the
 * delivery's transmissionID, triggerType and triggeredByEvent in the header.
 *
 * The snapshot is the shipment's current one when the delivery is sent: it
 * contains the change that triggered the delivery, and possibly later ones.
 * Deliveries of one shipment for one account sent together share one
 * execution; each gets its own header.
 *
 * Bodies stream: each delivery's body is a promise that settles as soon as
 * its group is rendered, so the worker sends the first deliveries of a round
 * while later groups still render (sending waits on the receiver, rendering
 * on the database and the CPU: the two overlap). A body promise never
 * rejects: a failed render is a retryable failure of its deliveries.
 */
export type PushBody =
  | { ok: true; body: string }
  /** permanent: the subscription stops (disabled); final: this delivery is given up, the subscription goes on. */
  | { ok: false; reason: string; permanent: boolean; final?: boolean };

const PUSH_REQUEST = 'http://push.internal/v2/shipments';

/** What a body states of the service without rendering a snapshot (a REVOKED delivery's header). */
export interface PushHeaderFacts {
  senderId: string;
  schemaVersion: string;
  now: () => Date;
}
/** Snapshots rendered at once per round: enough to overlap round trips, few enough to leave the pool to lookups. */
const RENDER_CONCURRENCY = 4;

export function createPushBodies(executor: Executor, db: Kysely<DatabaseSchema>, facts: PushHeaderFacts) {
  return async function bodies(
    deliveries: readonly ClaimedDelivery[],
    pace: () => Promise<void> = () => Promise.resolve(),
  ): Promise<Map<number, Promise<PushBody>>> {
    const settle = new Map<number, (body: PushBody) => void>();
    const promised = new Map<number, Promise<PushBody>>();
    for (const d of deliveries) promised.set(d.id, new Promise<PushBody>((resolve) => settle.set(d.id, resolve)));
    const out = { set: (id: number, body: PushBody) => settle.get(id)?.(body) };
    const revoked = deliveries.filter((d) => d.triggerType === 'REVOKED');
    if (revoked.length > 0) {
      const identifiers = await shipmentIdentifiers(db, [...new Set(revoked.map((d) => d.shipmentId))]);
      for (const d of revoked) out.set(d.id, revokedBody(d, identifiers.get(d.shipmentId), facts));
    }
    const rendered = deliveries.filter((d) => d.triggerType !== 'REVOKED');
    const keys = await shipmentKeysById(db, [...new Set(rendered.map((d) => d.shipmentId))]);
    const groups = new Map<string, ClaimedDelivery[]>();
    for (const d of rendered) {
      const key = JSON.stringify([d.shipmentId, d.clientId, d.accountId]);
      groups.set(key, [...(groups.get(key) ?? []), d]);
    }
    // Groups render concurrently (a few at a time): each is a lookup plus, on a snapshot cache miss, one
    // statement for its parts, so on a networked database the round trips overlap.
    const pending = [...groups.values()];
    const renderNext = async (): Promise<void> => {
      for (let group = pending.shift(); group; group = pending.shift()) {
        await pace();
        await render(group).catch((err: unknown) => {
          const reason = `snapshot failed: ${err instanceof Error ? err.message : String(err)}`;
          for (const d of group) out.set(d.id, { ok: false, permanent: false, reason });
        });
      }
    };
    const render = async (group: ClaimedDelivery[]): Promise<void> => {
      const first = group[0] as ClaimedDelivery;
      const variables = keys.get(first.shipmentId);
      const rendering = variables
        ? await renderShipment(executor, {
            request: new Request(PUSH_REQUEST),
            variables,
            context: {
              asPrincipal: { clientId: first.clientId, accountIds: [first.accountId], scopes: [READ_SCOPE] },
              transmission: transmissionOf(first),
            },
          })
        : null;
      const error = rendering?.kind === 'failed' ? rendering.error : undefined;
      if (!rendering || (error && readErrorCode(error) === 'NOT_FOUND')) {
        for (const d of group) {
          // An account-wide subscription goes on with the account's other shipments: only this delivery is given up.
          out.set(d.id, {
            ok: false,
            permanent: !d.accountWide,
            final: d.accountWide,
            reason: "the shipment is no longer visible to the subscription's account",
          });
        }
        return;
      }
      if (rendering.kind !== 'rendered') {
        for (const d of group) out.set(d.id, { ok: false, permanent: false, reason: `snapshot failed: ${error?.message ?? 'no data'}` });
        return;
      }
      for (const d of group) {
        out.set(d.id, { ok: true, body: transmissionJson({ ...rendering.header, ...transmissionOf(d) }, rendering.tracking) });
      }
    };
    void Promise.all(Array.from({ length: Math.min(RENDER_CONCURRENCY, pending.length) }, renderNext));
    return promised;
  };
}

/**
 * A REVOKED delivery (docs/account-feed.md): the account no longer sees the shipment, so the body is no
 * snapshot but the Transmission's header and the shipment's identifiers, `revokedShipment`, nothing more. It is
 * not rendered as the owner (the owner may not look the shipment up any more); the delivery worker has checked
 * that the owning client is still enabled.
 */
function revokedBody(
  d: ClaimedDelivery,
  shipment: { carrierCode: string; carrierBookingReference: string; billOfLadingNumber: string | null } | undefined,
  facts: PushHeaderFacts,
): PushBody {
  if (!shipment) return { ok: false, permanent: false, final: true, reason: 'the shipment no longer exists' };
  const header = {
    transmissionID: d.transmissionId,
    transmissionDateTime: facts.now().toISOString(),
    triggerType: 'REVOKED',
    triggeredByEvent: null,
    senderID: facts.senderId,
    receiverID: d.clientId,
    schemaVersion: facts.schemaVersion,
  };
  const { billOfLadingNumber, ...keys } = shipment;
  const revokedShipment = billOfLadingNumber === null ? keys : { ...keys, billOfLadingNumber };
  return { ok: true, body: JSON.stringify({ transmissionHeader: header, revokedShipment }) };
}

function transmissionOf(d: ClaimedDelivery): PushTransmission {
  return {
    transmissionID: d.transmissionId,
    triggerType: d.triggerType as PushTransmission['triggerType'],
    triggeredByEvent: d.triggeredByEvent,
  };
}
