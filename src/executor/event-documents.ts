/**
 * The fixed GraphQL documents of the DCSA publisher (docs/dcsa-events.md: Consuming the service as a DCSA publisher):
 * GET /v2/events and DCSA notifications run the `events` field, the /v2/event-subscriptions routes the event
 * subscription fields. Every field of an event is selected, so the 2.2 rendering (src/domain/dcsa/dcsa-events.ts,
 * toDcsaEvent) carries all the service holds of it.
 */

const LOCATION = 'locationName unLocationCode facilityCode facilityCodeListProvider address { name }';
const CALL = `transportCallID carrierServiceCode exportVoyageNumber importVoyageNumber transportCallSequenceNumber unLocationCode
  facilityCode facilityCodeListProvider facilityTypeCode modeOfTransport location { ${LOCATION} } vessel { vesselIMONumber vesselName }`;
const REFERENCES = 'documentReferences { documentReferenceType documentReferenceValue }';

/** One event in the order the 2.2 schemas list their fields. */
export const EVENT_SELECTION = `eventID eventType eventCreatedDateTime eventDateTime eventClassifierCode
  ... on ShipmentEvent { shipmentEventTypeCode documentTypeCode documentID ${REFERENCES} }
  ... on TransportEvent { transportEventTypeCode transportCall { ${CALL} } ${REFERENCES} }
  ... on EquipmentEvent { equipmentEventTypeCode equipmentReference emptyIndicatorCode eventLocation { ${LOCATION} } equipmentTransportCall: transportCall { ${CALL} } ${REFERENCES} }`;

/** The variables GET /v2/events may set (its query parameters, as the `events` field names them). */
export const EVENTS_VARIABLES = {
  eventType: '[String!]',
  shipmentEventTypeCode: '[String!]',
  documentTypeCode: '[String!]',
  carrierBookingReference: 'String',
  transportDocumentReference: 'String',
  transportEventTypeCode: '[String!]',
  transportCallID: 'String',
  vesselIMONumber: 'String',
  exportVoyageNumber: 'String',
  carrierServiceCode: 'String',
  UNLocationCode: 'String',
  equipmentEventTypeCode: '[String!]',
  equipmentReference: 'String',
  carrierCode: 'String',
  eventCreatedDateTime: 'EventTimeRange',
  sort: 'String',
  limit: 'Int',
  cursor: 'String',
  eventIDs: '[String!]',
} as const;

const declared = Object.entries(EVENTS_VARIABLES)
  .map(([name, type]) => `$${name}: ${type}`)
  .join(', ');
const passed = Object.keys(EVENTS_VARIABLES)
  .map((name) => `${name}: $${name}`)
  .join(', ');

export const EVENTS_DOCUMENT = {
  operationName: 'DcsaEvents',
  query: `query DcsaEvents(${declared}) {
  events(${passed}) { events { ${EVENT_SELECTION} } currentPage nextPage previousPage firstPage lastPage }
}`,
} as const;

const SUBSCRIPTION = `subscriptionID callbackUrl eventType shipmentEventTypeCode documentTypeCode carrierBookingReference
  transportDocumentReference transportEventTypeCode transportCallID vesselIMONumber exportVoyageNumber carrierServiceCode
  UNLocationCode equipmentEventTypeCode equipmentReference carrierCode`;

export const EVENT_SUBSCRIPTION_DOCUMENTS = {
  create: {
    operationName: 'DcsaCreateEventSubscription',
    query: `mutation DcsaCreateEventSubscription($request: EventSubscriptionRequest!) { createEventSubscription(request: $request) { ${SUBSCRIPTION} } }`,
  },
  list: {
    operationName: 'DcsaEventSubscriptions',
    query: `query DcsaEventSubscriptions($limit: Int, $cursor: String, $sort: String) {
  eventSubscriptions(limit: $limit, cursor: $cursor, sort: $sort) {
    subscriptions { ${SUBSCRIPTION} } currentPage nextPage previousPage firstPage lastPage
  }
}`,
  },
  get: {
    operationName: 'DcsaEventSubscription',
    query: `query DcsaEventSubscription($subscriptionID: String!) { eventSubscription(subscriptionID: $subscriptionID) { ${SUBSCRIPTION} } }`,
  },
  update: {
    operationName: 'DcsaUpdateEventSubscription',
    query: `mutation DcsaUpdateEventSubscription($subscriptionID: String!, $request: EventSubscriptionRequest!) {
  updateEventSubscription(subscriptionID: $subscriptionID, request: $request) { ${SUBSCRIPTION} }
}`,
  },
  delete: {
    operationName: 'DcsaDeleteEventSubscription',
    query: `mutation DcsaDeleteEventSubscription($subscriptionID: String!) { deleteEventSubscription(subscriptionID: $subscriptionID) }`,
  },
  secret: {
    operationName: 'DcsaUpdateEventSubscriptionSecret',
    query: `mutation DcsaUpdateEventSubscriptionSecret($subscriptionID: String!, $request: EventSubscriptionSecret!) {
  updateEventSubscriptionSecret(subscriptionID: $subscriptionID, request: $request)
}`,
  },
  deliveries: {
    operationName: 'DcsaEventSubscriptionDeliveries',
    query: `query DcsaEventSubscriptionDeliveries($subscriptionID: String!, $status: WebhookDeliveryStatus, $limit: Int) {
  eventSubscriptionDeliveries(subscriptionID: $subscriptionID, status: $status, limit: $limit) {
    deliveryID status attempts lastStatus lastError nextAttemptDateTime createdDateTime deliveredDateTime
  }
}`,
  },
} as const;
