import { componentRef, type JsonSchema } from './rest-schemas.js';

/** The tracking request bodies that are not a GraphQL type as such: the request body, the list. */
export function trackingRequestSchemas(): Record<string, JsonSchema> {
  return {
    TrackingRequestInput: {
      type: 'object',
      description:
        'What to track: exactly one of transportDocumentReference, carrierBookingReference (with carrierCode) or ' +
        "equipmentReference; carrierCode is otherwise optional (recognised from the reference's prefix).",
      properties: {
        transportDocumentReference: { type: 'string', minLength: 1, maxLength: 20, description: 'A bill of lading number.' },
        carrierBookingReference: { type: 'string', minLength: 1, maxLength: 35, description: 'A carrier booking reference.' },
        equipmentReference: { type: 'string', pattern: '^[A-Z]{3}[UJZ][0-9]{7}$', description: 'A container number (ISO 6346).' },
        carrierCode: { type: 'string', pattern: '^[A-Z]{2,4}$', description: "The carrier's SCAC code." },
      },
      additionalProperties: false,
    },
    TrackingRequestList: { type: 'array', items: componentRef('TrackingRequest'), description: 'Your tracking requests, oldest first.' },
  };
}
