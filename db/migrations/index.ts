import type { SqlDialect } from '../../src/db/dialect.js';
import type { PhasedMigration } from './phase.js';
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
import instanceHeartbeats from './024-instance-heartbeats.js';
import ediTimes from './029-edi-times.js';
import etaModel from './030-eta-model.js';
import predictedArrivalPush from './031-predicted-arrival-push.js';

export type { MigrationPhase, PhasedMigration } from './phase.js';

/**
 * Static, ordered migration map (atproto style): names sort in the order they apply. Each declares its phase
 * (db/migrations/phase.ts); the contract steps of a release, which rewrite rows, are run by `tracking upgrade
 * finish` (src/store/housekeeping/contract-steps.ts).
 *
 * Where each is recorded (src/store/housekeeping/migrate.ts): those of release 0.4.0 (PREVIOUS_RELEASE_MIGRATIONS)
 * in Kysely's `kysely_migration`, which 0.4.0's own Migrator reads at its start-up and refuses when it holds a
 * name 0.4.0 does not know; every later one in `release_migration`, which 0.4.0 never reads.
 */
export function migrations(dialect: SqlDialect): Record<string, PhasedMigration> {
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
    '024-instance-heartbeats': instanceHeartbeats(dialect),
    '029-edi-times': ediTimes(dialect),
    '030-eta-model': etaModel(dialect),
    '031-predicted-arrival-push': predictedArrivalPush(dialect),
  };
}

/** The migrations release 0.4.0 knows, recorded where its Migrator looks (kysely_migration). Never grows. */
export const PREVIOUS_RELEASE_MIGRATIONS: readonly string[] = [
  '001-initial',
  '002-exact-identifiers',
  '003-exception-lifecycle',
  '004-push-delivery',
  '005-wide-milestone-index',
  '006-carrier-sources',
  '007-stored-snapshots',
  '008-ordered-change-log',
  '009-statements-and-lifecycle',
  '010-dcsa-publisher',
  '011-account-feeds',
  '012-retired-signing-keys',
  '014-tracking-requests',
];
