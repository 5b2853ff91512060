import type { Address, DocumentReference, Location, TransportCall, Vessel } from '../../domain/types.js';
import {
  DOCUMENT_REFERENCE_TYPE_LIST,
  FACILITY_CODE_LIST_PROVIDER_LIST,
  FACILITY_TYPE_CODE_LIST,
  MODE_OF_TRANSPORT_LIST,
} from '../../domain/code-lists.js';
import { dcsaTransportCallID } from '../../domain/dcsa/dcsa-events.js';
import { builder } from '../builder.js';
import { codeListEnum } from '../code-list-enum.js';

export const FacilityCodeListProviderEnum = codeListEnum(
  'FacilityCodeListProvider',
  'Who issued a facilityCode.',
  FACILITY_CODE_LIST_PROVIDER_LIST,
);

export const FacilityTypeCodeEnum = codeListEnum(
  'FacilityTypeCode',
  'The kind of facility a transport call is at (DCSA facility types).',
  FACILITY_TYPE_CODE_LIST,
);

export const ModeOfTransportEnum = codeListEnum('ModeOfTransport', 'How the cargo moves (DCSA transport type).', MODE_OF_TRANSPORT_LIST);

export const DocumentReferenceTypeCodeEnum = codeListEnum(
  'DocumentReferenceTypeCode',
  'The kind of document a document reference names.',
  DOCUMENT_REFERENCE_TYPE_LIST,
);

export const AddressType = builder.objectRef<Address>('Address').implement({
  description: 'The address of a location.',
  fields: (t) => ({ name: t.exposeString('name', { description: 'The address, on one line.' }) }),
});

const FACILITY_CODE_LIST_PROVIDER_DESCRIPTION = 'Who issued facilityCode: BIC or SMDG.';

export const LocationType = builder.objectRef<Location>('Location').implement({
  description: 'A port, terminal or other place, by UN/LOCODE and optional facility code.',
  fields: (t) => ({
    locationName: t.exposeString('locationName', { nullable: true, description: 'Name of the place, e.g. Rotterdam.' }),
    unLocationCode: t.exposeString('unLocationCode', { nullable: true, description: 'UN/LOCODE, e.g. NLRTM.' }),
    facilityCode: t.exposeString('facilityCode', {
      nullable: true,
      description: 'The facility (terminal, depot), in the code list facilityCodeListProvider names.',
    }),
    facilityCodeListProvider: t.expose('facilityCodeListProvider', {
      type: FacilityCodeListProviderEnum,
      nullable: true,
      description: FACILITY_CODE_LIST_PROVIDER_DESCRIPTION,
    }),
    address: t.expose('address', { type: AddressType, nullable: true, description: 'Postal address of the place.' }),
  }),
});

export const VesselType = builder.objectRef<Vessel>('Vessel').implement({
  description: 'A vessel, by name and IMO number.',
  fields: (t) => ({
    vesselName: t.exposeString('vesselName', { description: 'Name of the vessel.' }),
    vesselIMONumber: t.exposeString('vesselIMONumber', { description: 'IMO number: seven digits, the last a check digit.' }),
  }),
});

export const TransportCallType = builder.objectRef<TransportCall>('TransportCall').implement({
  description: 'A call of a vessel (or truck, barge, train) at a place on its voyage (DCSA transport call).',
  fields: (t) => ({
    transportCallID: t.string({
      description:
        "DCSA transportCallID: the carrier's, or when it sent none the call's identity, at/<UN/LOCODE>/<sequence number>/<IMO number or mode>.",
      resolve: (call) => dcsaTransportCallID(call),
    }),
    carrierServiceCode: t.exposeString('carrierServiceCode', { nullable: true, description: 'The carrier service the call belongs to.' }),
    vessel: t.expose('vessel', { type: VesselType, nullable: true, description: 'The vessel; absent for non-vessel calls.' }),
    location: t.expose('location', { type: LocationType, nullable: true, description: 'Where the call is.' }),
    facilityCode: t.exposeString('facilityCode', { nullable: true, description: 'The facility called at.' }),
    unLocationCode: t.exposeString('unLocationCode', { description: 'UN/LOCODE of the place called at.' }),
    modeOfTransport: t.expose('modeOfTransport', {
      type: ModeOfTransportEnum,
      description: 'How the cargo moves to or from the call (values seen: VESSEL, TRUCK, BARGE).',
    }),
    facilityTypeCode: t.expose('facilityTypeCode', {
      type: FacilityTypeCodeEnum,
      nullable: true,
      description: 'The kind of facility called at (values seen: POTE, DEPO, INTE).',
    }),
    exportVoyageNumber: t.exposeString('exportVoyageNumber', {
      nullable: true,
      description: 'Voyage number of the departure from this call.',
    }),
    importVoyageNumber: t.exposeString('importVoyageNumber', {
      nullable: true,
      description: 'Voyage number of the arrival at this call.',
    }),
    facilityCodeListProvider: t.expose('facilityCodeListProvider', {
      type: FacilityCodeListProviderEnum,
      nullable: true,
      description: FACILITY_CODE_LIST_PROVIDER_DESCRIPTION,
    }),
    transportCallSequenceNumber: t.exposeInt('transportCallSequenceNumber', {
      nullable: true,
      description: 'Tells apart calls at the same place on one voyage (1 for the first).',
    }),
  }),
});

export const DocumentReferenceType = builder.objectRef<DocumentReference>('DocumentReference').implement({
  description: 'A document an event refers to.',
  fields: (t) => ({
    documentReferenceType: t.expose('documentReferenceType', {
      type: DocumentReferenceTypeCodeEnum,
      description: 'BKG (booking) or TRD (transport document).',
    }),
    documentReferenceValue: t.exposeString('documentReferenceValue', {
      description: 'The carrier booking reference or the bill of lading number.',
    }),
  }),
});
