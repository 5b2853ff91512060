import type { ApiClientTable, RetiredSigningKeyTable, ServiceSecretTable, SigningKeyTable } from './tables/auth.js';
import type { EventReferenceTable, EventTable, RejectedEventTable, ShipmentEventTable, UnlinkedEventTable } from './tables/event.js';
import type { TrackingExceptionTable } from './tables/exception.js';
import type {
  ShipmentAccountRevocationTable,
  ShipmentAccountTable,
  ShipmentAliasTable,
  ShipmentBillOfLadingTable,
  ShipmentContainerTable,
  ShipmentSnapshotTable,
  ShipmentStatementTable,
  ShipmentTable,
} from './tables/shipment.js';
import type {
  ChangeLogTable,
  ChangeSequenceTable,
  DcsaNotificationEventTable,
  WebhookDeliveryTable,
  WebhookSubscriptionTable,
  PredictedArrivalMarkTable,
} from './tables/push.js';
import type { TransmissionBlockTable } from './tables/transmission.js';
import type { CarrierPollStateTable, CarrierSourceTable, EdiInterchangeTable } from './tables/carrier.js';
import type { TrackingFetchTable, TrackingRequestTable } from './tables/tracking.js';
import type { InstanceHeartbeatTable } from './tables/release.js';
import type { EtaModelTable, EtaTrainingTable } from './tables/eta.js';

export interface DatabaseSchema {
  shipment: ShipmentTable;
  shipment_container: ShipmentContainerTable;
  shipment_account: ShipmentAccountTable;
  shipment_snapshot: ShipmentSnapshotTable;
  event: EventTable;
  event_reference: EventReferenceTable;
  shipment_event: ShipmentEventTable;
  tracking_exception: TrackingExceptionTable;
  api_client: ApiClientTable;
  signing_key: SigningKeyTable;
  retired_signing_key: RetiredSigningKeyTable;
  service_secret: ServiceSecretTable;
  transmission_block: TransmissionBlockTable;
  webhook_subscription: WebhookSubscriptionTable;
  predicted_arrival_mark: PredictedArrivalMarkTable;
  webhook_delivery: WebhookDeliveryTable;
  change_log: ChangeLogTable;
  change_sequence: ChangeSequenceTable;
  carrier_source: CarrierSourceTable;
  carrier_poll_state: CarrierPollStateTable;
  shipment_statement: ShipmentStatementTable;
  shipment_account_revocation: ShipmentAccountRevocationTable;
  unlinked_event: UnlinkedEventTable;
  rejected_event: RejectedEventTable;
  edi_interchange: EdiInterchangeTable;
  dcsa_notification_event: DcsaNotificationEventTable;
  tracking_fetch: TrackingFetchTable;
  tracking_request: TrackingRequestTable;
  shipment_alias: ShipmentAliasTable;
  shipment_bill_of_lading: ShipmentBillOfLadingTable;
  instance_heartbeat: InstanceHeartbeatTable;
  eta_model: EtaModelTable;
  eta_training: EtaTrainingTable;
}
