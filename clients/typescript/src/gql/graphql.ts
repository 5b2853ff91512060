/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** Whether an exception is open. */
export type ExceptionStatus =
  /** The condition holds; the exception is open. */
  | 'DETECTED'
  /** The condition no longer holds; resolvedDateTime, resolutionType and resolutionNote say when and why. */
  | 'RESOLVED';

/** The kind of problem an exception reports. */
export type ExceptionType =
  /** A laden container discharged and not gated out is within the warning window (default 48 h) of its free time expiry, or past it. */
  | 'DEMURRAGE_RISK'
  /** A container gated out at destination and not returned empty is within the warning window of its free time expiry, or past it. */
  | 'DETENTION_RISK'
  /** The best arrival at the port of discharge is at least the delay threshold (default 12 h) after the first planned arrival. */
  | 'ETA_DELAY'
  /** At a transshipment port the inbound arrival is later than the outbound departure. */
  | 'MISSED_CONNECTION'
  /** The vessel left the loading port without a container planned on it, or the container was re-planned on another vessel or voyage. */
  | 'ROLLOVER';

/** Why a transmission was sent. */
export type TriggerType =
  /** A milestone newly reported or flipped to ACT (push). */
  | 'EVENT_TRIGGER'
  /** A new exception raised (push). */
  | 'EXCEPTION_DETECTED'
  /** An exception resolved (push). */
  | 'EXCEPTION_RESOLVED'
  /** The shipment was given to the subscriber's account (account feed and account-wide webhooks). */
  | 'GRANTED'
  /** Full current snapshot; the only value returned by the lookup in v1. */
  | 'MANUAL_TRIGGER'
  /** The service's predicted arrival moved by more than the subscriber's predictedArrivalShiftHours, or first became later than the carrier's planned arrival by the subscriber's predictedLatenessHours before the carrier's own ETA did (opt-in, webhooks and live updates). */
  | 'PREDICTED_ARRIVAL'
  /** The shipment was taken from the subscriber's account: identifiers only (account feed and account-wide webhooks). */
  | 'REVOKED'
  /** Periodic refresh of a push subscription, at its scheduled interval. */
  | 'SCHEDULED_TRIGGER'
  /** The shipment, created from a tracked reference standing in for its booking, took its real booking: the two are one shipment, and the former reference still finds it (push). */
  | 'SHIPMENT_MERGED';

export type ShipmentByBookingQueryVariables = Exact<{
  carrierCode: string;
  carrierBookingReference: string;
}>;


export type ShipmentByBookingQuery = { shipment: { shipmentTracking: { id: string, carrierCode: string, carrierBookingReference: string, eta: string | null } } | null };

export type ShipmentDetailsQueryVariables = Exact<{
  id: string | number;
}>;


export type ShipmentDetailsQuery = { node:
    | { id: string }
    | { id: string }
    | { id: string }
    | { id: string }
    | { id: string }
    | { id: string }
    | { eta: string | null, vesselName: string | null, id: string, containers: Array<{ id: string, containerNumber: string }>, exceptions: Array<{ id: string, exceptionType: ExceptionType, status: ExceptionStatus }> }
    | { id: string }
    | { id: string }
    | { id: string }
    | { id: string }
   | null };

export type ShipmentsPageQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type ShipmentsPageQuery = { shipmentsConnection: { edges: Array<{ cursor: string, node: { id: string, carrierCode: string, carrierBookingReference: string, eta: string | null } }>, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null } } };

export type ShipmentUpdatesSubscriptionVariables = Exact<{
  billOfLadingNumber?: string | null | undefined;
}>;


export type ShipmentUpdatesSubscription = { shipmentUpdates: { transmissionHeader: { triggerType: TriggerType, transmissionID: string }, shipmentTracking: { id: string, eta: string | null, exceptions: Array<{ id: string, exceptionType: ExceptionType, status: ExceptionStatus }> } } };


export const ShipmentByBookingDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ShipmentByBooking"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"carrierCode"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"carrierBookingReference"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"shipment"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"carrierCode"},"value":{"kind":"Variable","name":{"kind":"Name","value":"carrierCode"}}},{"kind":"Argument","name":{"kind":"Name","value":"carrierBookingReference"},"value":{"kind":"Variable","name":{"kind":"Name","value":"carrierBookingReference"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"shipmentTracking"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"carrierCode"}},{"kind":"Field","name":{"kind":"Name","value":"carrierBookingReference"}},{"kind":"Field","name":{"kind":"Name","value":"eta"}}]}}]}}]}}]} as unknown as DocumentNode<ShipmentByBookingQuery, ShipmentByBookingQueryVariables>;
export const ShipmentDetailsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ShipmentDetails"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ShipmentTracking"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"eta"}},{"kind":"Field","name":{"kind":"Name","value":"vesselName"}},{"kind":"Field","name":{"kind":"Name","value":"containers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"containerNumber"}}]}},{"kind":"Field","name":{"kind":"Name","value":"exceptions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"exceptionType"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ShipmentDetailsQuery, ShipmentDetailsQueryVariables>;
export const ShipmentsPageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ShipmentsPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"shipmentsConnection"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"carrierCode"}},{"kind":"Field","name":{"kind":"Name","value":"carrierBookingReference"}},{"kind":"Field","name":{"kind":"Name","value":"eta"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"hasPreviousPage"}},{"kind":"Field","name":{"kind":"Name","value":"startCursor"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}}]} as unknown as DocumentNode<ShipmentsPageQuery, ShipmentsPageQueryVariables>;
export const ShipmentUpdatesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"ShipmentUpdates"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"billOfLadingNumber"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"shipmentUpdates"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"billOfLadingNumber"},"value":{"kind":"Variable","name":{"kind":"Name","value":"billOfLadingNumber"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"transmissionHeader"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"triggerType"}},{"kind":"Field","name":{"kind":"Name","value":"transmissionID"}}]}},{"kind":"Field","name":{"kind":"Name","value":"shipmentTracking"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"eta"}},{"kind":"Field","name":{"kind":"Name","value":"exceptions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"exceptionType"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ShipmentUpdatesSubscription, ShipmentUpdatesSubscriptionVariables>;