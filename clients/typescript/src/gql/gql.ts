/* eslint-disable */
import * as types from './graphql.js';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  query ShipmentByBooking($carrierCode: String!, $carrierBookingReference: String!) {\n    shipment(carrierCode: $carrierCode, carrierBookingReference: $carrierBookingReference) {\n      shipmentTracking {\n        id\n        carrierCode\n        carrierBookingReference\n        eta\n      }\n    }\n  }\n": typeof types.ShipmentByBookingDocument,
    "\n  query ShipmentDetails($id: ID!) {\n    node(id: $id) {\n      id\n      ... on ShipmentTracking {\n        eta\n        vesselName\n        containers {\n          id\n          containerNumber\n        }\n        exceptions {\n          id\n          exceptionType\n          status\n        }\n      }\n    }\n  }\n": typeof types.ShipmentDetailsDocument,
    "\n  query ShipmentsPage($first: Int, $after: String) {\n    shipmentsConnection(first: $first, after: $after) {\n      edges {\n        cursor\n        node {\n          id\n          carrierCode\n          carrierBookingReference\n          eta\n        }\n      }\n      pageInfo {\n        hasNextPage\n        hasPreviousPage\n        startCursor\n        endCursor\n      }\n    }\n  }\n": typeof types.ShipmentsPageDocument,
    "\n  subscription ShipmentUpdates($billOfLadingNumber: String) {\n    shipmentUpdates(billOfLadingNumber: $billOfLadingNumber) {\n      transmissionHeader {\n        triggerType\n        transmissionID\n      }\n      shipmentTracking {\n        id\n        eta\n        exceptions {\n          id\n          exceptionType\n          status\n        }\n      }\n    }\n  }\n": typeof types.ShipmentUpdatesDocument,
};
const documents: Documents = {
    "\n  query ShipmentByBooking($carrierCode: String!, $carrierBookingReference: String!) {\n    shipment(carrierCode: $carrierCode, carrierBookingReference: $carrierBookingReference) {\n      shipmentTracking {\n        id\n        carrierCode\n        carrierBookingReference\n        eta\n      }\n    }\n  }\n": types.ShipmentByBookingDocument,
    "\n  query ShipmentDetails($id: ID!) {\n    node(id: $id) {\n      id\n      ... on ShipmentTracking {\n        eta\n        vesselName\n        containers {\n          id\n          containerNumber\n        }\n        exceptions {\n          id\n          exceptionType\n          status\n        }\n      }\n    }\n  }\n": types.ShipmentDetailsDocument,
    "\n  query ShipmentsPage($first: Int, $after: String) {\n    shipmentsConnection(first: $first, after: $after) {\n      edges {\n        cursor\n        node {\n          id\n          carrierCode\n          carrierBookingReference\n          eta\n        }\n      }\n      pageInfo {\n        hasNextPage\n        hasPreviousPage\n        startCursor\n        endCursor\n      }\n    }\n  }\n": types.ShipmentsPageDocument,
    "\n  subscription ShipmentUpdates($billOfLadingNumber: String) {\n    shipmentUpdates(billOfLadingNumber: $billOfLadingNumber) {\n      transmissionHeader {\n        triggerType\n        transmissionID\n      }\n      shipmentTracking {\n        id\n        eta\n        exceptions {\n          id\n          exceptionType\n          status\n        }\n      }\n    }\n  }\n": types.ShipmentUpdatesDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ShipmentByBooking($carrierCode: String!, $carrierBookingReference: String!) {\n    shipment(carrierCode: $carrierCode, carrierBookingReference: $carrierBookingReference) {\n      shipmentTracking {\n        id\n        carrierCode\n        carrierBookingReference\n        eta\n      }\n    }\n  }\n"): (typeof documents)["\n  query ShipmentByBooking($carrierCode: String!, $carrierBookingReference: String!) {\n    shipment(carrierCode: $carrierCode, carrierBookingReference: $carrierBookingReference) {\n      shipmentTracking {\n        id\n        carrierCode\n        carrierBookingReference\n        eta\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ShipmentDetails($id: ID!) {\n    node(id: $id) {\n      id\n      ... on ShipmentTracking {\n        eta\n        vesselName\n        containers {\n          id\n          containerNumber\n        }\n        exceptions {\n          id\n          exceptionType\n          status\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query ShipmentDetails($id: ID!) {\n    node(id: $id) {\n      id\n      ... on ShipmentTracking {\n        eta\n        vesselName\n        containers {\n          id\n          containerNumber\n        }\n        exceptions {\n          id\n          exceptionType\n          status\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ShipmentsPage($first: Int, $after: String) {\n    shipmentsConnection(first: $first, after: $after) {\n      edges {\n        cursor\n        node {\n          id\n          carrierCode\n          carrierBookingReference\n          eta\n        }\n      }\n      pageInfo {\n        hasNextPage\n        hasPreviousPage\n        startCursor\n        endCursor\n      }\n    }\n  }\n"): (typeof documents)["\n  query ShipmentsPage($first: Int, $after: String) {\n    shipmentsConnection(first: $first, after: $after) {\n      edges {\n        cursor\n        node {\n          id\n          carrierCode\n          carrierBookingReference\n          eta\n        }\n      }\n      pageInfo {\n        hasNextPage\n        hasPreviousPage\n        startCursor\n        endCursor\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription ShipmentUpdates($billOfLadingNumber: String) {\n    shipmentUpdates(billOfLadingNumber: $billOfLadingNumber) {\n      transmissionHeader {\n        triggerType\n        transmissionID\n      }\n      shipmentTracking {\n        id\n        eta\n        exceptions {\n          id\n          exceptionType\n          status\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  subscription ShipmentUpdates($billOfLadingNumber: String) {\n    shipmentUpdates(billOfLadingNumber: $billOfLadingNumber) {\n      transmissionHeader {\n        triggerType\n        transmissionID\n      }\n      shipmentTracking {\n        id\n        eta\n        exceptions {\n          id\n          exceptionType\n          status\n        }\n      }\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;