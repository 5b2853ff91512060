/**
 * The fixed GraphQL documents behind /v2/tracking-requests (src/rest/tracking-requests-handler.ts): REST has no
 * second path to the data, it runs these through the executor like the lookup.
 */

const REQUEST = `trackingRequestID status carrierCode transportDocumentReference carrierBookingReference equipmentReference
  failureReason stopReason shipment { carrierCode carrierBookingReference billOfLadingNumber } eventsReceived
  createdDateTime updatedDateTime statusChangedDateTime trackingSinceDateTime lastFetchedDateTime nextFetchDateTime`;

export const TRACKING_REQUEST_DOCUMENTS = {
  create: {
    operationName: 'RestCreateTrackingRequest',
    query: `mutation RestCreateTrackingRequest($request: TrackingRequestInput!) {
  createTrackingRequest(request: $request) { trackingRequest { ${REQUEST} } created }
}`,
  },
  list: {
    operationName: 'RestListTrackingRequests',
    query: `query RestListTrackingRequests($cursor: String, $limit: Int) {
  trackingRequests(cursor: $cursor, limit: $limit) { trackingRequests { ${REQUEST} } nextCursor }
}`,
  },
  get: {
    operationName: 'RestGetTrackingRequest',
    query: `query RestGetTrackingRequest($trackingRequestID: String!) { trackingRequest(trackingRequestID: $trackingRequestID) { ${REQUEST} } }`,
  },
  stop: {
    operationName: 'RestStopTrackingRequest',
    query: `mutation RestStopTrackingRequest($trackingRequestID: String!) { stopTrackingRequest(trackingRequestID: $trackingRequestID) }`,
  },
} as const;
