/**
 * The fixed GraphQL documents behind /v2/subscriptions: REST has no second
 * path to the data, it runs these through Yoga's envelop like the lookup.
 */

const SUBSCRIPTION = `subscriptionID callbackUrl carrierCode carrierBookingReference billOfLadingNumber equipmentReference
  triggerTypes exceptionTypes carrierCodes predictedArrivalShiftHours predictedLatenessHours coverage scheduledIntervalSeconds status disabledReason previousSecretExpiresDateTime createdDateTime updatedDateTime`;
const DELIVERY = `deliveryID transmissionID triggerType triggeredByEvent exceptionID status attempts lastStatus lastError
  nextAttemptDateTime createdDateTime deliveredDateTime`;

const TRIAL = 'deliveryID transmissionID status latencyMs error delivered test';

export const SUBSCRIPTION_DOCUMENTS = {
  create: {
    operationName: 'RestCreateSubscription',
    query: `mutation RestCreateSubscription($request: WebhookSubscriptionRequest!) {
  createWebhookSubscription(request: $request) { subscription { ${SUBSCRIPTION} } secret }
}`,
  },
  list: {
    operationName: 'RestListSubscriptions',
    query: `query RestListSubscriptions { webhookSubscriptions { ${SUBSCRIPTION} } }`,
  },
  get: {
    operationName: 'RestGetSubscription',
    query: `query RestGetSubscription($subscriptionID: String!) { webhookSubscription(subscriptionID: $subscriptionID) { ${SUBSCRIPTION} } }`,
  },
  delete: {
    operationName: 'RestDeleteSubscription',
    query: `mutation RestDeleteSubscription($subscriptionID: String!) { deleteWebhookSubscription(subscriptionID: $subscriptionID) }`,
  },
  rotate: {
    operationName: 'RestRotateSubscriptionSecret',
    query: `mutation RestRotateSubscriptionSecret($subscriptionID: String!, $overlapSeconds: Int, $secret: String) {
  rotateWebhookSubscriptionSecret(subscriptionID: $subscriptionID, overlapSeconds: $overlapSeconds, secret: $secret) {
    subscription { ${SUBSCRIPTION} } secret
  }
}`,
  },
  deliveries: {
    operationName: 'RestListDeliveries',
    query: `query RestListDeliveries($subscriptionID: String!, $status: WebhookDeliveryStatus, $limit: Int) {
  webhookDeliveries(subscriptionID: $subscriptionID, status: $status, limit: $limit) { ${DELIVERY} }
}`,
  },
  test: {
    operationName: 'RestTestSubscription',
    query: `mutation RestTestSubscription($subscriptionID: String!) { testWebhookSubscription(subscriptionID: $subscriptionID) { ${TRIAL} } }`,
  },
  redeliver: {
    operationName: 'RestRedeliver',
    query: `mutation RestRedeliver($subscriptionID: String!, $deliveryID: String!) {
  redeliverWebhookDelivery(subscriptionID: $subscriptionID, deliveryID: $deliveryID) { ${TRIAL} }
}`,
  },
} as const;
