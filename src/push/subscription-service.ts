import { randomBytes } from 'node:crypto';
import { SecretBox } from '../auth/secret-box.js';
import type { Peppers } from '../auth/pepper.js';
import { DCSA, lookupError } from '../errors/errors.js';
import { namesNoShipment, shipmentNotFound, toShipmentLookup, type LookupArgs } from '../arguments/lookup-arguments.js';
import type { Db } from '../db/connect.js';
import { checkCallbackUrl, type PushEnvironment } from '../domain/push/callback-url.js';
import {
  isAccessTrigger,
  isNewerThanPreviousRelease,
  listOfNames,
  PREDICTED_ARRIVAL,
  type ChangeTriggerType,
} from '../domain/push/push-triggers.js';
import { writesCompact } from '../store/encoding/write-forms.js';
import { findShipment } from '../store/shipments/shipment-lookup.js';
import {
  ACCOUNT_WIDE,
  countActiveSubscriptions,
  createSubscription,
  getSubscription,
  listSealedSubscriptionSecrets,
  rotateSubscriptionSecret,
  updateSealedSubscriptionSecrets,
  type WebhookSubscription,
} from '../store/push/webhook-subscriptions.js';
import type { Principal } from '../auth/principal.js';
import type { ClaimedDelivery } from '../store/push/delivery-queue.js';
import type { PushBody } from './transmission-bodies.js';
import type { WebhookRequest, WebhookResponse } from './webhook-sender.js';

/**
 * Webhook subscriptions as a client manages them (docs/architecture.md, Push); the
 * GraphQL fields and, through them, the /v2/subscriptions routes call these.
 * Input shapes are checked by the fields' schemas; here are the rules that
 * need the database or the network: the callback host's addresses, the
 * shipment's visibility to the caller, the per-client limit.
 */

export interface PushServices {
  environment: PushEnvironment;
  /** Seals signing secrets at rest (src/auth/secret-box.ts). */
  secrets: SecretBox;
  /** Why the callback host may not receive webhooks (resolved now), or null. */
  checkHost(hostname: string): Promise<string | null>;
  maxSubscriptionsPerClient: number;
  /** Called after a change that enqueued deliveries was committed in this process, so they go out at once. */
  wake(): void;
  /** Test deliveries and redeliveries (src/push/webhook-trial.ts): attached with the delivery worker. */
  trials?: WebhookTrials;
}

/** What sends test deliveries and redeliveries: the delivery worker's renderer and sender (src/app/workers.ts). */
export interface WebhookTrials {
  bodies(deliveries: readonly ClaimedDelivery[]): Promise<Map<number, PushBody | Promise<PushBody>>>;
  send(request: WebhookRequest): Promise<WebhookResponse>;
}

export interface SubscriptionRequestInput extends LookupArgs {
  callbackUrl: string;
  triggerTypes?: readonly string[] | null;
  exceptionTypes?: readonly string[] | null;
  carrierCodes?: readonly string[] | null;
  scheduledIntervalSeconds?: number | null;
  predictedArrivalShiftHours?: number | null;
  predictedLatenessHours?: number | null;
  secret?: string | null;
}

/**
 * The triggers a subscription gets when it names none: every change, and the refresh when an interval is given;
 * an account-wide one also the shipments its account is given and loses (docs/account-feed.md).
 */
export function defaultTriggerTypes(scheduledIntervalSeconds: number | null | undefined, accountWide = false): ChangeTriggerType[] {
  const changes: ChangeTriggerType[] = ['EVENT_TRIGGER', 'EXCEPTION_DETECTED', 'EXCEPTION_RESOLVED', 'SHIPMENT_MERGED'];
  if (accountWide) return [...changes, 'GRANTED', 'REVOKED'];
  return scheduledIntervalSeconds ? [...changes, 'SCHEDULED_TRIGGER'] : changes;
}

/** A new signing secret: 256 random bits. */
export function generateSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

function badInput(property: string, message: string) {
  return lookupError('BAD_USER_INPUT', message, [
    { ...DCSA.invalidParameter, property, jsonPath: `$.${property}`, errorCodeMessage: message },
  ]);
}

export async function createWebhookSubscription(
  db: Db,
  push: PushServices,
  principal: Principal,
  input: SubscriptionRequestInput,
  now: Date,
): Promise<{ subscription: WebhookSubscription; secret: string }> {
  const url = checkCallbackUrl(input.callbackUrl, push.environment);
  if (!url.ok) throw badInput('callbackUrl', `callbackUrl ${url.reason}`);
  const hostProblem = await push.checkHost(url.url.hostname);
  if (hostProblem) throw badInput('callbackUrl', `callbackUrl must not point at ${hostProblem}`);

  const lookup = toShipmentLookup(input);
  // No lookup form: every shipment the account sees, later ones included (docs/account-feed.md).
  const accountWide = namesNoShipment(input);
  if (accountWide && (input.scheduledIntervalSeconds != null || input.triggerTypes?.includes('SCHEDULED_TRIGGER'))) {
    throw badInput('scheduledIntervalSeconds', 'an account-wide subscription receives changes only: SCHEDULED_TRIGGER needs a lookup form');
  }
  if (!accountWide && input.triggerTypes?.some(isAccessTrigger)) {
    throw badInput(
      'triggerTypes',
      'GRANTED and REVOKED are changes of an account: they need an account-wide subscription (no lookup form)',
    );
  }
  checkPredictedArrivalRequest(input, accountWide);
  checkTriggersBeforeFinish(db, input.triggerTypes);
  const shipment = accountWide ? null : await findShipment(db, lookup, principal.accountIds);
  if (!accountWide && !shipment) throw shipmentNotFound();

  if ((await countActiveSubscriptions(db, principal.clientId)) >= push.maxSubscriptionsPerClient) {
    throw badInput('subscriptionID', `a client may hold at most ${push.maxSubscriptionsPerClient} active subscriptions; delete some first`);
  }
  const secret = input.secret ?? generateSigningSecret();
  const subscription = await createSubscription(db, {
    clientId: principal.clientId,
    accountId: principal.accountIds[0] ?? '',
    shipmentId: shipment?.id ?? ACCOUNT_WIDE,
    lookup,
    callbackUrl: url.url.toString(),
    triggerTypes:
      (input.triggerTypes as ChangeTriggerType[] | null | undefined) ??
      defaultTriggerTypes(input.scheduledIntervalSeconds, accountWide).filter((t) => writesCompact(db) || !isNewerThanPreviousRelease(t)),
    exceptionTypes: input.exceptionTypes ?? null,
    carrierCodes: input.carrierCodes ?? null,
    predictedArrivalShiftHours: input.predictedArrivalShiftHours ?? null,
    predictedLatenessHours: input.predictedLatenessHours ?? null,
    scheduledIntervalSeconds: input.scheduledIntervalSeconds ?? null,
    sealedSecret: push.secrets.seal(secret),
    now,
  });
  return { subscription, secret };
}

/**
 * PREDICTED_ARRIVAL's thresholds against the trigger types, for a webhook subscription and a live stream
 * (shipmentUpdates) alike: a threshold only with the trigger, and the trigger with at least one threshold (each
 * threshold's range is the GraphQL argument's check). True when PREDICTED_ARRIVAL is asked for (with a threshold).
 */
export function checkPredictedArrivalThresholds(input: {
  triggerTypes?: readonly string[] | null;
  predictedArrivalShiftHours?: number | null;
  predictedLatenessHours?: number | null;
}): boolean {
  const asked = input.triggerTypes?.includes(PREDICTED_ARRIVAL) ?? false;
  const shift = input.predictedArrivalShiftHours ?? null;
  const lateness = input.predictedLatenessHours ?? null;
  if (!asked) {
    if (shift !== null) throw badInput('predictedArrivalShiftHours', 'predictedArrivalShiftHours needs PREDICTED_ARRIVAL in triggerTypes');
    if (lateness !== null) throw badInput('predictedLatenessHours', 'predictedLatenessHours needs PREDICTED_ARRIVAL in triggerTypes');
    return false;
  }
  if (shift === null && lateness === null) {
    throw badInput(
      'predictedArrivalShiftHours',
      'PREDICTED_ARRIVAL needs predictedArrivalShiftHours or predictedLatenessHours (or both): the hours that are worth a push',
    );
  }
  return true;
}

/**
 * PREDICTED_ARRIVAL's rules for a webhook subscription (docs/push.md, Predicted arrival): one shipment (a lookup
 * form), and the thresholds' rules above. (That it waits for the upgrade's finish is checkTriggersBeforeFinish's.)
 */
function checkPredictedArrivalRequest(input: SubscriptionRequestInput, accountWide: boolean): void {
  if (accountWide && (input.triggerTypes?.includes(PREDICTED_ARRIVAL) ?? false)) {
    throw badInput(
      'triggerTypes',
      'PREDICTED_ARRIVAL follows one shipment: it needs a lookup form (an account-wide subscription cannot list it)',
    );
  }
  checkPredictedArrivalThresholds(input);
}

/**
 * A subscription may name a trigger the previous release does not know (NEWER_THAN_PREVIOUS_RELEASE, beside the
 * trigger types, says why each is there) only once the upgrade to this release is finished: until then, 409 naming
 * the triggers it listed and the finish.
 */
function checkTriggersBeforeFinish(db: Db, triggerTypes: readonly string[] | null | undefined): void {
  const newer = (triggerTypes ?? []).filter(isNewerThanPreviousRelease);
  if (newer.length === 0 || writesCompact(db)) return;
  const message =
    `${listOfNames(newer)} can be subscribed to once the upgrade to this release is finished (tracking upgrade finish): ` +
    'instances of the previous release, which may still run, know no such trigger and can neither deliver one nor ' +
    'list a subscription that names one';
  throw lookupError('CONFLICT', message, [
    { ...DCSA.invalidParameter, property: 'triggerTypes', jsonPath: '$.triggerTypes', errorCodeMessage: message },
  ]);
}

/** One of the caller's subscriptions, or the lookup's 404. */
export async function requireSubscription(db: Db, principal: Principal, subscriptionId: string): Promise<WebhookSubscription> {
  const subscription = await getSubscription(db, principal.clientId, subscriptionId);
  if (!subscription) throw subscriptionNotFound();
  return subscription;
}

export function subscriptionNotFound() {
  return lookupError('NOT_FOUND', 'no such subscription', [{ ...DCSA.notFound, errorCodeMessage: 'No such subscription.' }]);
}

/** A new signing secret; the previous one keeps signing for `overlapSeconds`. */
export async function rotateWebhookSecret(
  db: Db,
  push: PushServices,
  principal: Principal,
  subscriptionId: string,
  options: { overlapSeconds: number; secret?: string | null },
  now: Date,
): Promise<{ subscription: WebhookSubscription; secret: string }> {
  const secret = options.secret ?? generateSigningSecret();
  const subscription = await rotateSubscriptionSecret(
    db,
    principal.clientId,
    subscriptionId,
    push.secrets.seal(secret),
    new Date(now.getTime() + options.overlapSeconds * 1000),
    now,
  );
  if (!subscription) throw subscriptionNotFound();
  return { subscription, secret };
}

/** What seals webhook signing secrets at rest, under the server pepper (and during a rotation, opens the previous pepper's). */
export function webhookSecretBox(peppers: Peppers): SecretBox {
  return new SecretBox(peppers.current, 'webhook-signing-secret', peppers.previous);
}

/**
 * Moves every subscription's signing secret under the current pepper
 * (`tracking keys rewrap`): counts what moved and what was current, and
 * names the subscriptions neither pepper opens (they need a rotation by their owner).
 */
export async function rewrapSubscriptionSecrets(
  db: Db,
  box: SecretBox,
): Promise<{ resealed: number; current: number; unreadable: string[] }> {
  const result = { resealed: 0, current: 0, unreadable: [] as string[] };
  for (const row of await listSealedSubscriptionSecrets(db)) {
    const set: { secret_ciphertext?: string; previous_secret_ciphertext?: string } = {};
    for (const column of ['secret_ciphertext', 'previous_secret_ciphertext'] as const) {
      const sealed = row[column];
      if (sealed === null) continue;
      try {
        const moved = box.reseal(sealed);
        if (moved === null) result.current += 1;
        else {
          set[column] = moved;
          result.resealed += 1;
        }
      } catch {
        if (!result.unreadable.includes(row.subscription_id)) result.unreadable.push(row.subscription_id);
      }
    }
    if (Object.keys(set).length > 0) await updateSealedSubscriptionSecrets(db, row.subscription_id, set);
  }
  return result;
}
