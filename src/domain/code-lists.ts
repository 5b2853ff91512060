/**
 * DCSA code lists that ingest validates against and that GraphQL and the
 * OpenAPI document serve as enums: one source, so a value ingest accepts is
 * always one the schemas can serialize. Each list maps a code to what it
 * means, in the words of the DCSA reference data
 * (`shared/dcsa/referencedata/*.csv`), copied here because the runtime
 * cannot read that folder. Where the Track & Trace 2.2 OpenAPI enum names a
 * value the CSV lacks, the value is added and marked: carriers publish
 * against the OpenAPI, and a valid 2.2 event must not be rejected.
 */

/** Code → meaning. */
export type CodeList = Readonly<Record<string, string>>;

/** The codes of a list, as the non-empty tuple that `z.enum` takes. */
function codesOf<L extends CodeList>(list: L): readonly [keyof L & string, ...(keyof L & string)[]] {
  return Object.keys(list) as [keyof L & string, ...(keyof L & string)[]];
}

/**
 * eventclassifiercodes.csv lists ACT, PLN, EST and REQ. REQ (requested) is
 * deliberately not accepted: the 2.2 event schemas only allow ACT, PLN and
 * EST, and the milestone model (docs/architecture.md, Snapshot rules: ACT over EST over PLN) has
 * no place for a request.
 */
export const EVENT_CLASSIFIER_CODE_LIST = {
  ACT: 'Actual: the milestone has happened.',
  EST: 'Estimated: a forecast.',
  PLN: 'Planned: from the carrier schedule.',
} as const satisfies CodeList;
export const EVENT_CLASSIFIER_CODES = codesOf(EVENT_CLASSIFIER_CODE_LIST);

export const EVENT_TYPE_LIST = {
  SHIPMENT: 'A booking or document milestone (ShipmentEvent).',
  TRANSPORT: 'A vessel or other means of transport arriving or departing (TransportEvent).',
  EQUIPMENT: 'A container movement (EquipmentEvent).',
} as const satisfies CodeList;
export const EVENT_TYPES = codesOf(EVENT_TYPE_LIST);

/** shipmenteventtypecodes.csv */
export const SHIPMENT_EVENT_TYPE_CODE_LIST = {
  RECE: 'Received: the document is received by the carrier or shipper.',
  DRFT: 'Drafted: the document is in draft, being updated by the shipper or the carrier.',
  PENA: 'Pending Approval: submitted by the carrier, awaiting approval by the shipper.',
  PENU: 'Pending Update: the carrier requested an update from the shipper, not received yet.',
  PENC: 'Pending Confirmation: submitted by the shipper, awaiting approval by the carrier.',
  REJE: 'Rejected: the document has been rejected by the carrier.',
  APPR: 'Approved: the document has been approved by the counterpart.',
  ISSU: 'Issued: the document has been issued by the carrier (for a bill of lading: bill of lading issued).',
  SURR: 'Surrendered: the document has been surrendered by the customer to the carrier.',
  SUBM: 'Submitted: the document has been submitted by the customer to the carrier.',
  VOID: 'Void: cancellation of an original document.',
  CONF: 'Confirmed: the document is confirmed (for a booking: booking confirmed).',
  REQS: 'Requested: an activity, service or document has been requested, until it is completed.',
  CMPL: 'Completed: an activity, service or document has been completed.',
  HOLD: 'On Hold: the container or shipment has been placed on hold and cannot progress.',
  RELS: 'Released: the container or shipment has been released by authorities or the service provider.',
  CANC: 'Cancelled: the booking is cancelled by the shipper.',
} as const satisfies CodeList;
export const SHIPMENT_EVENT_TYPE_CODES = codesOf(SHIPMENT_EVENT_TYPE_CODE_LIST);

/** equipmenteventtypecodes.csv */
export const EQUIPMENT_EVENT_TYPE_CODE_LIST = {
  LOAD: 'Load: the container has been lifted on board the means of transport and secured.',
  DISC: 'Discharge: the container has been lifted off the means of transport.',
  GTIN: 'Gate in: the container has entered a controlled area such as a port or inland terminal.',
  GTOT: 'Gate out: the container has left a controlled area such as a port or inland terminal.',
  STUF: 'Stuffing: cargo loaded into the container.',
  STRP: 'Stripping: cargo unloaded from the container.',
  PICK: 'Pick-up: the container collected at the customer location.',
  DROP: 'Drop-off: the container delivered at the customer location.',
  INSP: 'Inspected: the seal on the container has been inspected.',
  RSEA: 'Resealed: the container has been resealed after inspection.',
  RMVD: 'Removed: a seal has been removed from the container for inspection.',
  AVPU: 'Available for Pick-up: the container is ready to be collected at a facility.',
  AVDO: 'Available for Drop-off: the container is ready to be delivered at a facility.',
  CUSS: 'Customs Selected for Scan: customs selected the container for scanning.',
  CUSI: 'Customs Selected for Inspection: customs selected the container for inspection.',
  CUSR: 'Customs Released: customs released the container for export or import.',
  WAYP: 'Way Point Crossed: the container crossed an intermediate point of its transit.',
} as const satisfies CodeList;
export const EQUIPMENT_EVENT_TYPE_CODES = codesOf(EQUIPMENT_EVENT_TYPE_CODE_LIST);

/** transporteventtypecodes.csv */
export const TRANSPORT_EVENT_TYPE_CODE_LIST = {
  ARRI: 'Arrival.',
  DEPA: 'Departure.',
} as const satisfies CodeList;
export const TRANSPORT_EVENT_TYPE_CODES = codesOf(TRANSPORT_EVENT_TYPE_CODE_LIST);

/** documenttypecodes.csv, plus SRM and CUS from the 2.2 OpenAPI `documentTypeCode` enum. */
export const DOCUMENT_TYPE_CODE_LIST = {
  CBR: 'Carrier Booking Request.',
  BKG: 'Booking.',
  SHI: 'Shipping Instruction.',
  TRD: 'Transport Document (bill of lading).',
  DEI: 'Delivery Instructions.',
  DEO: 'Delivery Order.',
  TRO: 'Transport Order.',
  CRO: 'Container Release Order.',
  ARN: 'Arrival Notice.',
  VGM: 'Verified Gross Mass.',
  CAS: 'Cargo Survey.',
  CUC: 'Customs Clearance.',
  DGD: 'Dangerous Goods Declaration.',
  OOG: 'Out of Gauge.',
  CQU: 'Contract Quotation.',
  INV: 'Invoice.',
  SRM: 'Shipment Release Message (DCSA Track & Trace 2.2 OpenAPI only).',
  CUS: 'Customs Inspection (DCSA Track & Trace 2.2 OpenAPI only).',
} as const satisfies CodeList;
export const DOCUMENT_TYPE_CODES = codesOf(DOCUMENT_TYPE_CODE_LIST);

/**
 * `documentReferences[].documentReferenceType`: the 2.2 OpenAPI allows only
 * a booking or a transport document (its enum literally reads "BKG (Booking)",
 * an evident documentation slip for BKG).
 */
export const DOCUMENT_REFERENCE_TYPE_LIST = {
  BKG: 'Booking: the value is a carrier booking reference.',
  TRD: 'Transport document: the value is a bill of lading number.',
} as const satisfies CodeList;
export const DOCUMENT_REFERENCE_TYPES = codesOf(DOCUMENT_REFERENCE_TYPE_LIST);

/** emptyindicatorcodes.csv */
export const EMPTY_INDICATOR_CODE_LIST = {
  EMPTY: 'The container is empty.',
  LADEN: 'The container is loaded with cargo.',
} as const satisfies CodeList;
export const EMPTY_INDICATOR_CODES = codesOf(EMPTY_INDICATOR_CODE_LIST);

/** facilitytypes.csv, plus COYA from the 2.2 OpenAPI `facilityTypeCodeTRN` enum. */
export const FACILITY_TYPE_CODE_LIST = {
  BOCR: 'Border crossing: a point at a border where transports or goods can cross.',
  CLOC: 'Customer location: the premises of the shipper or the consignee.',
  COFS: 'Container freight station: where LCL cargo is consolidated, stuffed or stripped.',
  OFFD: 'Off dock storage: an interim storage facility for containers in transit.',
  DEPO: 'Depot: an area where empty equipment is stored between uses.',
  INTE: 'Inland terminal: containers are loaded, moved or discharged by truck, rail or barge.',
  POTE: 'Port terminal: containers are loaded, moved or discharged onto or from sea-going vessels and barges.',
  PBPL: 'Pilot boarding place: where a pilot boards the vessel on arrival at the port boundaries.',
  BRTH: 'Berth: a place in a port where vessels moor.',
  RAMP: 'Ramp: an inland container terminal connected directly to a rail ramp.',
  ANCH: 'Anchorage: where vessels anchor or may anchor.',
  COYA: 'Container yard: deprecated in DCSA 2.2 in favour of OFFD, still in its OpenAPI enum.',
} as const satisfies CodeList;
export const FACILITY_TYPE_CODES = codesOf(FACILITY_TYPE_CODE_LIST);

/**
 * modeoftransportcodes.csv, column "DCSA Transport Type": the values 2.2
 * events carry in `transportCall.modeOfTransport` (the numeric UN/ECE
 * Recommendation 19 codes 1, 2, 3, 8 of the same file are not used by 2.2).
 */
export const MODE_OF_TRANSPORT_LIST = {
  VESSEL: 'Maritime transport: by sea.',
  RAIL: 'Rail transport.',
  TRUCK: 'Road transport.',
  BARGE: 'Inland water transport.',
} as const satisfies CodeList;
export const MODES_OF_TRANSPORT = codesOf(MODE_OF_TRANSPORT_LIST);

/** `facilityCodeListProvider` (2.2 OpenAPI enum). */
export const FACILITY_CODE_LIST_PROVIDER_LIST = {
  BIC: 'Bureau International des Containers: facilityCode is a BIC facility code.',
  SMDG: 'Ship Message Design Group: facilityCode is an SMDG terminal code.',
} as const satisfies CodeList;
export const FACILITY_CODE_LIST_PROVIDERS = codesOf(FACILITY_CODE_LIST_PROVIDER_LIST);
