/**
 * The GraphQL operations of the typed client (docs/graphql-client.md). `npm run client:graphql` turns each
 * `graphql(...)` document into a TypedDocumentNode (src/gql/): its variables and result are typed from
 * schema.graphql, for urql, Apollo Client or any client that takes a DocumentNode.
 */
import { graphql } from '../gql/index.js';

/** A shipment by its booking: the lookup, with the fields a list shows. */
export const ShipmentByBookingQuery = graphql(`
  query ShipmentByBooking($carrierCode: String!, $carrierBookingReference: String!) {
    shipment(carrierCode: $carrierCode, carrierBookingReference: $carrierBookingReference) {
      shipmentTracking {
        id
        carrierCode
        carrierBookingReference
        eta
      }
    }
  }
`);

/** The same shipment again by its global ID, with its details: a normalized cache keeps one entry for both. */
export const ShipmentDetailsQuery = graphql(`
  query ShipmentDetails($id: ID!) {
    node(id: $id) {
      id
      ... on ShipmentTracking {
        eta
        vesselName
        containers {
          id
          containerNumber
        }
        exceptions {
          id
          exceptionType
          status
        }
      }
    }
  }
`);

/** A page of the shipments your account sees (a Relay connection: relayPagination and relayStylePagination page it). */
export const ShipmentsPageQuery = graphql(`
  query ShipmentsPage($first: Int, $after: String) {
    shipmentsConnection(first: $first, after: $after) {
      edges {
        cursor
        node {
          id
          carrierCode
          carrierBookingReference
          eta
        }
      }
      pageInfo {
        hasNextPage
        hasPreviousPage
        startCursor
        endCursor
      }
    }
  }
`);

/** Live updates of one shipment (SSE): each carries the shipment with its id, so a cache updates the entry it holds. */
export const ShipmentUpdatesSubscription = graphql(`
  subscription ShipmentUpdates($billOfLadingNumber: String) {
    shipmentUpdates(billOfLadingNumber: $billOfLadingNumber) {
      transmissionHeader {
        triggerType
        transmissionID
      }
      shipmentTracking {
        id
        eta
        exceptions {
          id
          exceptionType
          status
        }
      }
    }
  }
`);
