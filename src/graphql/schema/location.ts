import type { Address, DocumentReference, Location, TransportCall, Vessel } from '../../domain/types.js';
import { builder } from '../builder.js';

export const FacilityCodeListProviderEnum = builder.enumType('FacilityCodeListProvider', {
  values: ['BIC', 'SMDG'] as const,
});

export const AddressType = builder.objectRef<Address>('Address').implement({
  fields: (t) => ({ name: t.exposeString('name') }),
});

export const LocationType = builder.objectRef<Location>('Location').implement({
  description: 'A port, terminal or other place, by UN/LOCODE and optional facility code.',
  fields: (t) => ({
    locationName: t.exposeString('locationName', { nullable: true }),
    unLocationCode: t.exposeString('unLocationCode', { nullable: true, description: 'UN/LOCODE' }),
    facilityCode: t.exposeString('facilityCode', { nullable: true }),
    facilityCodeListProvider: t.expose('facilityCodeListProvider', {
      type: FacilityCodeListProviderEnum,
      nullable: true,
    }),
    address: t.expose('address', { type: AddressType, nullable: true }),
  }),
});

export const VesselType = builder.objectRef<Vessel>('Vessel').implement({
  fields: (t) => ({
    vesselName: t.exposeString('vesselName'),
    vesselIMONumber: t.exposeString('vesselIMONumber'),
  }),
});

export const TransportCallType = builder.objectRef<TransportCall>('TransportCall').implement({
  fields: (t) => ({
    vessel: t.expose('vessel', { type: VesselType, nullable: true, description: 'Absent for non-vessel calls.' }),
    location: t.expose('location', { type: LocationType, nullable: true }),
    facilityCode: t.exposeString('facilityCode', { nullable: true }),
    unLocationCode: t.exposeString('unLocationCode'),
    modeOfTransport: t.exposeString('modeOfTransport', { description: 'DCSA transport type: VESSEL, RAIL, TRUCK, BARGE.' }),
    facilityTypeCode: t.exposeString('facilityTypeCode', { nullable: true, description: 'DCSA facility type, e.g. POTE, DEPO, INTE.' }),
    exportVoyageNumber: t.exposeString('exportVoyageNumber', { nullable: true }),
    importVoyageNumber: t.exposeString('importVoyageNumber', { nullable: true }),
    facilityCodeListProvider: t.expose('facilityCodeListProvider', {
      type: FacilityCodeListProviderEnum,
      nullable: true,
    }),
    transportCallSequenceNumber: t.exposeInt('transportCallSequenceNumber', { nullable: true }),
  }),
});

export const DocumentReferenceType = builder.objectRef<DocumentReference>('DocumentReference').implement({
  fields: (t) => ({
    documentReferenceType: t.exposeString('documentReferenceType', { description: 'BKG or TRD.' }),
    documentReferenceValue: t.exposeString('documentReferenceValue'),
  }),
});
