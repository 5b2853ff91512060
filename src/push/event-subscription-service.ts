import { z } from 'zod';
import type { Principal } from '../auth/principal.js';
import type { Db } from '../db/connect.js';
import type { EventFilter } from '../domain/dcsa/dcsa-event-filter.js';
import { notificationKey } from '../domain/dcsa/dcsa-notification-signature.js';
import { checkCallbackUrl, MAX_CALLBACK_URL_LENGTH } from '../domain/push/callback-url.js';
import { EVENT_FILTER_SCHEMA, parseOrRefuse, withoutEmptyLists } from '../arguments/dcsa-event-query.js';
import { DCSA, lookupError } from '../errors/errors.js';
import {
  createDcsaSubscription,
  deleteDcsaSubscription,
  getDcsaSubscription,
  updateDcsaSecret,
  updateDcsaSubscription,
  type DcsaSubscription,
} from '../store/push/dcsa-subscriptions.js';
import { countActiveSubscriptions } from '../store/push/webhook-subscriptions.js';
import type { PushServices } from './subscription-service.js';

/**
 * DCSA Track & Trace 2.2 event subscriptions as a client manages them (README: Consuming the service as a DCSA
 * publisher); the GraphQL fields and, through them, the /v2/event-subscriptions routes call these. The body is
 * the standard's: callbackUrl, the Base64 secret (creation only) and the filters; the callback URL follows the
 * webhook rules (SSRF: src/domain/push/callback-url.ts) and DCSA subscriptions count toward the per-client cap
 * of webhook subscriptions.
 */

/** The request fields of POST and PUT, as the GraphQL input carries them (null for absent). */
export type EventSubscriptionRequest = Record<string, unknown>;

/** Deprecated 2.2 fields with a successor: accepted under either name. */
const ALIASES = { bookingReference: 'carrierBookingReference', carrierVoyageNumber: 'exportVoyageNumber' } as const;
/** Deprecated 2.2 fields this service has nothing to match with. */
const REFUSED: Record<string, string> = {
  transportDocumentID: 'transportDocumentID is deprecated in 2.2 and not supported; use transportDocumentReference',
  transportDocumentTypeCode: 'transportDocumentTypeCode is deprecated in 2.2 ("not to be used any more") and not supported',
  scheduleID: 'scheduleID is deprecated in 2.2 (added by mistake) and not supported',
};

const SECRET = z.string().superRefine((value, ctx) => {
  const key = notificationKey(value);
  if (!key.ok) ctx.addIssue({ code: 'custom', message: key.message.replace('the notification secret', 'secret') });
});

function refuse(property: string, message: string) {
  return lookupError('BAD_USER_INPUT', message, [{ ...DCSA.invalidParameter, property, errorCodeMessage: message }]);
}

export function eventSubscriptionNotFound() {
  return lookupError('NOT_FOUND', 'no such subscription', [{ ...DCSA.notFound, errorCodeMessage: 'No such event subscription of yours.' }]);
}

/** The callback URL and filters of a request, checked (a refusal names the field). */
async function checked(push: PushServices, request: EventSubscriptionRequest): Promise<{ callbackUrl: string; filter: EventFilter }> {
  const given = Object.fromEntries(Object.entries(request).filter(([, v]) => v !== null && v !== undefined));
  for (const [name, message] of Object.entries(REFUSED)) if (name in given) throw refuse(name, message);
  for (const [old, current] of Object.entries(ALIASES)) {
    if (!(old in given)) continue;
    if (current in given && given[current] !== given[old])
      throw refuse(old, `${old} (deprecated) and ${current} differ; send ${current} alone`);
    given[current] = given[old];
    delete given[old];
  }
  const { callbackUrl, secret: _secret, subscriptionID: _id, ...filters } = given;
  if (typeof callbackUrl !== 'string' || callbackUrl.length === 0) throw refuse('callbackUrl', 'callbackUrl is required');
  if (callbackUrl.length > MAX_CALLBACK_URL_LENGTH) {
    throw refuse('callbackUrl', `callbackUrl must be at most ${MAX_CALLBACK_URL_LENGTH} characters`);
  }
  const url = checkCallbackUrl(callbackUrl, push.environment);
  if (!url.ok) throw refuse('callbackUrl', `callbackUrl ${url.reason}`);
  const hostProblem = await push.checkHost(url.url.hostname);
  if (hostProblem) throw refuse('callbackUrl', `callbackUrl must not point at ${hostProblem}`);
  return { callbackUrl: url.url.toString(), filter: withoutEmptyLists(parseOrRefuse(EVENT_FILTER_SCHEMA, filters)) };
}

async function underCap(db: Db, push: PushServices, principal: Principal): Promise<void> {
  if ((await countActiveSubscriptions(db, principal.clientId)) >= push.maxSubscriptionsPerClient) {
    throw refuse(
      'subscriptionID',
      `a client may hold at most ${push.maxSubscriptionsPerClient} active subscriptions (webhook and DCSA together); delete some first`,
    );
  }
}

export async function createEventSubscription(
  db: Db,
  push: PushServices,
  principal: Principal,
  request: EventSubscriptionRequest,
  now: Date,
): Promise<DcsaSubscription> {
  if (request.subscriptionID != null) throw refuse('subscriptionID', 'subscriptionID is assigned by the service; leave it out');
  if (request.secret == null) throw refuse('secret', 'secret is required: the Base64 key of Notification-Signature');
  const secret = parseOrRefuse(SECRET, request.secret).trim();
  const { callbackUrl, filter } = await checked(push, request);
  await underCap(db, push, principal);
  return createDcsaSubscription(db, {
    clientId: principal.clientId,
    accountId: principal.accountIds[0] ?? '',
    callbackUrl,
    filter,
    sealedSecret: push.secrets.seal(secret),
    now,
  });
}

export async function requireEventSubscription(db: Db, principal: Principal, id: string): Promise<DcsaSubscription> {
  const subscription = await getDcsaSubscription(db, principal.clientId, id);
  if (!subscription) throw eventSubscriptionNotFound();
  return subscription;
}

export async function updateEventSubscription(
  db: Db,
  push: PushServices,
  principal: Principal,
  id: string,
  request: EventSubscriptionRequest,
  now: Date,
): Promise<DcsaSubscription> {
  if (request.secret != null)
    throw refuse('secret', 'secret may only be given when creating; change it with PUT /v2/event-subscriptions/{id}/secret');
  if (request.subscriptionID != null && request.subscriptionID !== id) {
    throw refuse('subscriptionID', 'subscriptionID in the body differs from the one in the path');
  }
  const current = await requireEventSubscription(db, principal, id);
  const { callbackUrl, filter } = await checked(push, request);
  // A subscription its receiver stopped (410) is active again: it counts toward the cap once more.
  if (current.status !== 'ACTIVE') await underCap(db, push, principal);
  const updated = await updateDcsaSubscription(db, principal.clientId, id, { callbackUrl, filter, now });
  if (!updated) throw eventSubscriptionNotFound();
  return updated;
}

export async function deleteEventSubscription(db: Db, principal: Principal, id: string, now: Date): Promise<void> {
  if (!(await deleteDcsaSubscription(db, principal.clientId, id, now))) throw eventSubscriptionNotFound();
}

export async function updateEventSubscriptionSecret(
  db: Db,
  push: PushServices,
  principal: Principal,
  id: string,
  request: EventSubscriptionRequest,
  now: Date,
): Promise<void> {
  const extra = Object.keys(request).find((k) => k !== 'secret' && request[k] != null);
  if (extra) throw refuse(extra, `${extra} is not a field of the secret body; it holds secret alone`);
  if (request.secret == null) throw refuse('secret', 'secret is required: the Base64 key of Notification-Signature');
  const secret = parseOrRefuse(SECRET, request.secret).trim();
  if (!(await updateDcsaSecret(db, principal.clientId, id, push.secrets.seal(secret), now))) throw eventSubscriptionNotFound();
}
