/**
 * DCSA code lists that ingest validates against, copied from the DCSA
 * reference data (`shared/dcsa/referencedata/*.csv`) because the runtime
 * cannot read that folder. Where the Track & Trace 2.2 OpenAPI enum names a
 * value the CSV lacks, the value is added and marked: carriers publish
 * against the OpenAPI, and a valid 2.2 event must not be rejected.
 */

/**
 * eventclassifiercodes.csv lists ACT, PLN, EST and REQ. REQ (requested) is
 * deliberately not accepted: the 2.2 event schemas only allow ACT, PLN and
 * EST, and the milestone model (DESIGN section 5: ACT over EST over PLN) has
 * no place for a request.
 */
export const EVENT_CLASSIFIER_CODES = ['ACT', 'EST', 'PLN'] as const;

export const EVENT_TYPES = ['SHIPMENT', 'TRANSPORT', 'EQUIPMENT'] as const;

/** shipmenteventtypecodes.csv */
export const SHIPMENT_EVENT_TYPE_CODES = [
  'RECE', // Received
  'DRFT', // Drafted
  'PENA', // Pending Approval
  'PENU', // Pending Update
  'PENC', // Pending Confirmation
  'REJE', // Rejected
  'APPR', // Approved
  'ISSU', // Issued
  'SURR', // Surrendered
  'SUBM', // Submitted
  'VOID', // Void
  'CONF', // Confirmed
  'REQS', // Requested
  'CMPL', // Completed
  'HOLD', // On Hold
  'RELS', // Released
  'CANC', // Cancelled
] as const;

/** equipmenteventtypecodes.csv */
export const EQUIPMENT_EVENT_TYPE_CODES = [
  'LOAD', // Load
  'DISC', // Discharge
  'GTIN', // Gate in
  'GTOT', // Gate out
  'STUF', // Stuffing
  'STRP', // Stripping
  'PICK', // Pick-up
  'DROP', // Drop-off
  'INSP', // Inspected
  'RSEA', // Resealed
  'RMVD', // Removed
  'AVPU', // Available for Pick-up
  'AVDO', // Available for Drop-off
  'CUSS', // Customs Selected for Scan
  'CUSI', // Customs Selected for Inspection
  'CUSR', // Customs Released
  'WAYP', // Way Point Crossed
] as const;

/** transporteventtypecodes.csv */
export const TRANSPORT_EVENT_TYPE_CODES = ['ARRI', 'DEPA'] as const;

/** documenttypecodes.csv, plus SRM and CUS from the 2.2 OpenAPI `documentTypeCode` enum. */
export const DOCUMENT_TYPE_CODES = [
  'CBR', // Carrier Booking Request
  'BKG', // Booking
  'SHI', // Shipping Instruction
  'TRD', // Transport Document
  'DEI', // Delivery Instructions
  'DEO', // Delivery Order
  'TRO', // Transport Order
  'CRO', // Container Release Order
  'ARN', // Arrival Notice
  'VGM', // Verified Gross Mass
  'CAS', // Cargo Survey
  'CUC', // Customs Clearance
  'DGD', // Dangerous Goods Declaration
  'OOG', // Out of Gauge
  'CQU', // Contract Quotation
  'INV', // Invoice
  'SRM', // Shipment Release Message (OpenAPI 2.2 only)
  'CUS', // Customs Inspection (OpenAPI 2.2 only)
] as const;

/**
 * `documentReferences[].documentReferenceType`: the 2.2 OpenAPI allows only
 * a booking or a transport document (its enum literally reads "BKG (Booking)",
 * an evident documentation slip for BKG).
 */
export const DOCUMENT_REFERENCE_TYPES = ['BKG', 'TRD'] as const;

/** emptyindicatorcodes.csv */
export const EMPTY_INDICATOR_CODES = ['EMPTY', 'LADEN'] as const;

/** facilitytypes.csv, plus COYA from the 2.2 OpenAPI `facilityTypeCodeTRN` enum. */
export const FACILITY_TYPE_CODES = [
  'BOCR', // Border crossing
  'CLOC', // Customer location
  'COFS', // Container freight station
  'OFFD', // Off dock storage
  'DEPO', // Depot
  'INTE', // Inland terminal
  'POTE', // Port terminal
  'PBPL', // Pilot boarding place
  'BRTH', // Berth
  'RAMP', // Ramp
  'ANCH', // Anchorage
  'COYA', // Deprecated in 2.2 in favour of OFFD, still in its enum (OpenAPI 2.2 only)
] as const;

/**
 * modeoftransportcodes.csv, column "DCSA Transport Type": the values 2.2
 * events carry in `transportCall.modeOfTransport` (the numeric UN/ECE
 * Recommendation 19 codes 1, 2, 3, 8 of the same file are not used by 2.2).
 */
export const MODES_OF_TRANSPORT = ['VESSEL', 'RAIL', 'TRUCK', 'BARGE'] as const;

/** `facilityCodeListProvider` (2.2 OpenAPI enum). */
export const FACILITY_CODE_LIST_PROVIDERS = ['BIC', 'SMDG'] as const;
