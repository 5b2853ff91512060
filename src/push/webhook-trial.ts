import { performance } from 'node:perf_hooks';
import type { Principal } from '../auth/principal.js';
import type { Db } from '../db/connect.js';
import { checkCallbackUrl } from '../domain/push/callback-url.js';
import { deliveryTransmissionId } from '../domain/push/retry-policy.js';
import { SIGNATURE_HEADER, signatureHeader } from '../domain/push/webhook-signature.js';
import { DCSA, lookupError } from '../errors/errors.js';
import { countWebhookTrial } from '../observability/metrics.js';
import { latestVisibleShipmentId } from '../store/changes/account-feed.js';
import { findDelivery, recordRedelivery, type ClaimedDelivery } from '../store/push/delivery-queue.js';
import { ACCOUNT_WIDE, getSendingSubscription, type SendingSubscription } from '../store/push/webhook-subscriptions.js';
import { subscriptionNotFound, type PushServices, type WebhookTrials } from './subscription-service.js';

/**
 * Trying a webhook (docs/account-feed.md, Trying a webhook): a test delivery of a current snapshot, and the
 * redelivery of a past delivery, sent now, while the client waits, outside the outbox's order. Both are
 * rendered by the outbox's renderer (as the owner, so the tenant rule holds), signed like every delivery and
 * sent by the same sender (the callback URL's address checked at each connection, the receiver's timeout).
 */

export interface TrialResult {
  deliveryID: string;
  transmissionID: string;
  /** The receiver's HTTP status; null when it did not answer (refused, timeout, DNS). */
  status: number | null;
  /** From the request's start to the receiver's answer (or the failure). */
  latencyMs: number;
  /** What went wrong, or null when the receiver answered 2xx. */
  error: string | null;
  delivered: boolean;
  test: boolean;
}

const USER_AGENT = 'TrackAndTrace-Webhooks/1.0';
export const TEST_HEADER = 'Tracking-Test';
export const REDELIVERY_HEADER = 'Tracking-Redelivery';

function conflict(message: string) {
  return lookupError('CONFLICT', message, [{ ...DCSA.invalidQuery, errorCodeMessage: message }]);
}

function trialsOf(push: PushServices): WebhookTrials {
  if (!push.trials) throw lookupError('SERVICE_UNAVAILABLE', 'webhook sending is not running in this process', []);
  return push.trials;
}

async function sendingSubscription(db: Db, push: PushServices, principal: Principal, subscriptionId: string) {
  const subscription = await getSendingSubscription(db, principal.clientId, subscriptionId);
  if (!subscription) throw subscriptionNotFound();
  // The callback URL's rules as they are now (the sender checks the address it connects to as well).
  const url = checkCallbackUrl(subscription.callbackUrl, push.environment);
  const problem = url.ok ? await push.checkHost(url.url.hostname) : url.reason;
  if (problem) throw conflict(`the callback URL may not receive webhooks now: ${problem}`);
  return subscription;
}

function claimedOf(
  s: SendingSubscription,
  delivery: {
    id: number;
    deliveryId: string;
    transmissionId: string;
    shipmentId: number;
    triggerType: string;
    triggeredByEvent: string | null;
  },
): ClaimedDelivery {
  return {
    id: delivery.id,
    lease: '',
    deliveryId: delivery.deliveryId,
    transmissionId: delivery.transmissionId,
    subscriptionId: s.subscriptionId,
    shipmentId: delivery.shipmentId,
    triggerType: delivery.triggerType,
    triggeredByEvent: delivery.triggeredByEvent,
    exceptionId: null,
    attempts: 0,
    createdAt: new Date(0).toISOString(),
    clientId: s.clientId,
    accountId: s.accountId,
    callbackUrl: s.callbackUrl,
    secretCiphertext: s.secretCiphertext,
    previousSecretCiphertext: s.previousSecretCiphertext,
    previousSecretExpiresAt: s.previousSecretExpiresAt,
    kind: 'WEBHOOK',
    callbackCheckedAt: null,
    accountWide: s.shipmentId === ACCOUNT_WIDE,
  };
}

async function sendOne(
  push: PushServices,
  d: ClaimedDelivery,
  now: Date,
  extraHeaders: Record<string, string>,
): Promise<{ status: number | null; error: string | null; latencyMs: number; rendered: boolean }> {
  const trials = trialsOf(push);
  const body = await (await trials.bodies([d])).get(d.id);
  if (!body || !body.ok) return { status: null, error: body?.reason ?? 'no body', latencyMs: 0, rendered: false };
  const secrets = [push.secrets.open(d.secretCiphertext)];
  if (d.previousSecretCiphertext && d.previousSecretExpiresAt && d.previousSecretExpiresAt > now.toISOString()) {
    secrets.push(push.secrets.open(d.previousSecretCiphertext));
  }
  const started = performance.now();
  const response = await trials.send({
    url: d.callbackUrl,
    body: body.body,
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': USER_AGENT,
      [SIGNATURE_HEADER]: signatureHeader(secrets, Math.floor(now.getTime() / 1000), body.body),
      'Tracking-Delivery-ID': d.deliveryId,
      'Tracking-Transmission-ID': d.transmissionId,
      'Tracking-Trigger-Type': d.triggerType,
      ...extraHeaders,
    },
  });
  const latencyMs = Math.round(performance.now() - started);
  const ok = response.status !== null && response.status >= 200 && response.status < 300;
  return { status: response.status, error: ok ? null : (response.error ?? `HTTP ${response.status}`), latencyMs, rendered: true };
}

/**
 * Sends a signed test delivery (header Tracking-Test: true) of a current snapshot: the subscription's
 * shipment, or for an account-wide one the shipment that changed last. Not recorded in the delivery log.
 */
export async function testWebhook(
  db: Db,
  push: PushServices,
  principal: Principal,
  subscriptionId: string,
  ids: { deliveryId: string; transmissionId: string },
  now: Date,
): Promise<TrialResult> {
  const subscription = await sendingSubscription(db, push, principal, subscriptionId);
  const shipmentId =
    subscription.shipmentId === ACCOUNT_WIDE ? await latestVisibleShipmentId(db, principal.accountIds) : subscription.shipmentId;
  if (shipmentId === null) throw conflict('your account sees no shipment yet: there is nothing to send');
  const d = claimedOf(subscription, {
    id: 0,
    deliveryId: ids.deliveryId,
    transmissionId: ids.transmissionId,
    shipmentId,
    triggerType: 'MANUAL_TRIGGER',
    triggeredByEvent: null,
  });
  const sent = await sendOne(push, d, now, { [TEST_HEADER]: 'true' });
  if (!sent.rendered) throw conflict(`no snapshot to send: ${sent.error}`);
  countWebhookTrial('test', sent.status);
  return { deliveryID: d.deliveryId, transmissionID: d.transmissionId, ...omitRendered(sent), delivered: sent.error === null, test: true };
}

/**
 * Sends a past delivery again, now: the same delivery ID and transmissionID, the shipment's current snapshot,
 * header Tracking-Redelivery: true. Recorded as one more attempt in the delivery log (a 2xx makes a failed
 * delivery delivered). A delivery still pending is the worker's: 409.
 */
export async function redeliverWebhook(
  db: Db,
  push: PushServices,
  principal: Principal,
  subscriptionId: string,
  deliveryId: string,
  now: Date,
): Promise<TrialResult> {
  const subscription = await sendingSubscription(db, push, principal, subscriptionId);
  const delivery = await findDelivery(db, subscription.subscriptionId, deliveryId);
  if (!delivery) {
    throw lookupError('NOT_FOUND', 'no such delivery', [{ ...DCSA.notFound, errorCodeMessage: 'No such delivery of this subscription.' }]);
  }
  if (delivery.status === 'PENDING') throw conflict('this delivery is still pending: it is sent in its turn');
  const d = claimedOf(subscription, {
    id: delivery.id,
    deliveryId: delivery.delivery_id,
    transmissionId: deliveryTransmissionId(delivery.id),
    shipmentId: delivery.shipment_id,
    triggerType: delivery.trigger_type,
    triggeredByEvent: delivery.triggered_by_event,
  });
  const sent = await sendOne(push, d, now, { [REDELIVERY_HEADER]: 'true' });
  if (!sent.rendered) throw conflict(`this delivery cannot be sent again: ${sent.error}`);
  await recordRedelivery(db, delivery.id, sent, now);
  countWebhookTrial('redeliver', sent.status);
  return { deliveryID: d.deliveryId, transmissionID: d.transmissionId, ...omitRendered(sent), delivered: sent.error === null, test: false };
}

function omitRendered(sent: { status: number | null; error: string | null; latencyMs: number }) {
  return { status: sent.status, error: sent.error, latencyMs: sent.latencyMs };
}
