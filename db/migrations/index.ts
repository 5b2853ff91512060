import type { Migration } from 'kysely';
import type { SqlDialect } from '../../src/db/dialect.js';
import initial from './001-initial.js';
import exactIdentifiers from './002-exact-identifiers.js';
import exceptionLifecycle from './003-exception-lifecycle.js';
import pushDelivery from './004-push-delivery.js';
import wideMilestoneIndex from './005-wide-milestone-index.js';
import carrierSources from './006-carrier-sources.js';
import storedSnapshots from './007-stored-snapshots.js';
import orderedChangeLog from './008-ordered-change-log.js';
import statementsAndLifecycle from './009-statements-and-lifecycle.js';
import dcsaPublisher from './010-dcsa-publisher.js';
import accountFeeds from './011-account-feeds.js';
import retiredSigningKeys from './012-retired-signing-keys.js';
import trackingRequests from './014-tracking-requests.js';
import accessChanges from './015-access-changes.js';
import shipmentIdentity from './016-shipment-identity.js';
import carrierBackoff from './017-carrier-backoff.js';
import ediInterchanges from './019-edi-interchanges.js';
import compactSnapshots from './020-compact-snapshots.js';
import compactEvents from './021-compact-events.js';
import eventScale from './023-event-scale.js';
import etaModel from './030-eta-model.js';

/** Static, ordered migration map (atproto style): names sort in the order they apply. */
export function migrations(dialect: SqlDialect): Record<string, Migration> {
  return {
    '001-initial': initial(dialect),
    '002-exact-identifiers': exactIdentifiers(dialect),
    '003-exception-lifecycle': exceptionLifecycle(dialect),
    '004-push-delivery': pushDelivery(dialect),
    '005-wide-milestone-index': wideMilestoneIndex(dialect),
    '006-carrier-sources': carrierSources(dialect),
    '007-stored-snapshots': storedSnapshots(dialect),
    '008-ordered-change-log': orderedChangeLog(dialect),
    '009-statements-and-lifecycle': statementsAndLifecycle(dialect),
    '010-dcsa-publisher': dcsaPublisher(dialect),
    '011-account-feeds': accountFeeds(dialect),
    '012-retired-signing-keys': retiredSigningKeys(dialect),
    '014-tracking-requests': trackingRequests(dialect),
    '015-access-changes': accessChanges(dialect),
    '016-shipment-identity': shipmentIdentity(dialect),
    '017-carrier-backoff': carrierBackoff(dialect),
    '019-edi-interchanges': ediInterchanges(dialect),
    '020-compact-snapshots': compactSnapshots(dialect),
    '021-compact-events': compactEvents(dialect),
    '023-event-scale': eventScale(dialect),
    '030-eta-model': etaModel(dialect),
  };
}
