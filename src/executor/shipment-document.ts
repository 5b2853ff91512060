/**
 * The fixed GraphQL document behind GET /v2/shipments: the full snapshot of
 * spec section 2. REST has no second path to the data; it runs this document
 * through Yoga's envelop like any GraphQL request.
 */

const LOCATION = 'locationName unLocationCode facilityCode facilityCodeListProvider address { name }';
const TRANSPORT_CALL = `vessel { vesselName vesselIMONumber } location { ${LOCATION} } facilityCode unLocationCode
  modeOfTransport facilityTypeCode exportVoyageNumber importVoyageNumber facilityCodeListProvider transportCallSequenceNumber`;
const EVENT = 'eventID eventType eventDateTime eventCreatedDateTime eventClassifierCode';
const DOCUMENT_REFERENCES = 'documentReferences { documentReferenceType documentReferenceValue }';

/** The full ShipmentTracking selection of the lookup (also the change feed's snapshots); it uses EQUIPMENT_EVENT_FRAGMENT. */
export const SHIPMENT_TRACKING_SELECTION = `{
      bookingReference carrierBookingReference billOfLadingNumber carrierCode carrierName vesselName voyageNumber
      portOfLoading { ${LOCATION} }
      portOfDischarge { ${LOCATION} }
      placeOfReceipt { ${LOCATION} }
      placeOfDelivery { ${LOCATION} }
      serviceType etd eta
      references {
        customer_name string_ref1 string_ref2 string_ref3 string_ref4 string_ref5 string_ref6 string_ref7 string_ref8
        cargo_ready_dt si_cutoff_dt vgm_cutoff_dt booking_dt date_ref1 date_ref2 date_ref3 date_ref4
      }
      shipmentEvents { ${EVENT} ${DOCUMENT_REFERENCES} documentID documentTypeCode shipmentEventTypeCode }
      transportEvents { ${EVENT} ${DOCUMENT_REFERENCES} transportCall { ${TRANSPORT_CALL} } transportEventTypeCode }
      containers {
        containerNumber isoType
        references {
          customer_name string_ref1 string_ref2 string_ref3 string_ref4 string_ref5 string_ref6 string_ref7 string_ref8
          stuffing_dt free_time_exp_dt date_ref1 date_ref2 date_ref3 date_ref4 date_ref5 date_ref6
        }
        latestEvent { ...EquipmentEventFields }
        eventHistory { ...EquipmentEventFields }
      }
      exceptions {
        exceptionID exceptionType exceptionCategory severity status detectedDateTime resolvedDateTime resolutionType
        resolutionNote title description relatedEventID affectedContainers
        impact { field previousValue revisedValue delayHours }
        recommendedAction
      }
    }`;

export const EQUIPMENT_EVENT_FRAGMENT = `fragment EquipmentEventFields on EquipmentEvent {
  ${EVENT} eventLocation { ${LOCATION} } transportCall { ${TRANSPORT_CALL} } emptyIndicatorCode equipmentReference equipmentEventTypeCode
}
`;

export const SHIPMENT_DOCUMENT = /* GraphQL */ `
query RestShipmentLookup($carrierCode: String, $carrierBookingReference: String, $billOfLadingNumber: String, $equipmentReference: String) {
  shipment(carrierCode: $carrierCode, carrierBookingReference: $carrierBookingReference, billOfLadingNumber: $billOfLadingNumber, equipmentReference: $equipmentReference) {
    transmissionHeader { transmissionID transmissionDateTime triggerType triggeredByEvent senderID receiverID schemaVersion }
    shipmentTracking ${SHIPMENT_TRACKING_SELECTION}
  }
}

${EQUIPMENT_EVENT_FRAGMENT}`;

/**
 * The predicted arrival of the shipment GET /v2/shipments?include=predictedArrival looks up (docs/predicted-arrival.md):
 * run beside the lookup document, whose rendering and entity tag stay those of the default body.
 */
export const PREDICTED_ARRIVAL_DOCUMENT = /* GraphQL */ `
  query RestPredictedArrival(
    $carrierCode: String
    $carrierBookingReference: String
    $billOfLadingNumber: String
    $equipmentReference: String
  ) {
    shipment(
      carrierCode: $carrierCode
      carrierBookingReference: $carrierBookingReference
      billOfLadingNumber: $billOfLadingNumber
      equipmentReference: $equipmentReference
    ) {
      shipmentTracking {
        predictedArrival {
          estimatedDateTime
          earliestDateTime
          latestDateTime
          coverage
          basis
          sampleSize
          trainedAt
        }
      }
    }
  }
`;

/** Query parameters of GET /v2/shipments (spec section 4.2); any other is a 400. */
export const LOOKUP_PARAMETERS = ['carrierCode', 'carrierBookingReference', 'billOfLadingNumber', 'equipmentReference'] as const;
