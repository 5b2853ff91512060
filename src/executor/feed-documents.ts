import { EQUIPMENT_EVENT_FRAGMENT, SHIPMENT_TRACKING_SELECTION } from './shipment-document.js';

/**
 * The fixed GraphQL documents behind GET /v2/changes (docs/account-feed.md): REST has no second path to the
 * data, it runs these through the executor like the lookup. Two documents rather than an @include, so a page
 * without snapshots never selects them.
 */

const ENTRY = `carrierCode carrierBookingReference billOfLadingNumber version changedDateTime
      changes { triggerType triggeredByEvent exceptionID exceptionType changedDateTime }`;

export const FEED_DOCUMENTS = {
  changes: {
    operationName: 'RestAccountChanges',
    query: `query RestAccountChanges($after: String, $limit: Int) {
  accountChanges(after: $after, limit: $limit) { changes { ${ENTRY} } next hasMore }
}`,
  },
  changesWithSnapshots: {
    operationName: 'RestAccountChangesWithSnapshots',
    query: `query RestAccountChangesWithSnapshots($after: String, $limit: Int) {
  accountChanges(after: $after, limit: $limit) {
    changes {
      ${ENTRY}
      shipmentTracking ${SHIPMENT_TRACKING_SELECTION}
    }
    next hasMore
  }
}

${EQUIPMENT_EVENT_FRAGMENT}`,
  },
} as const;
