import type { EquipmentEvent, ShipmentEvent, TrackingEvent, TransportEvent } from '../../domain/types.js';
import { builder } from '../builder.js';
import { DocumentReferenceType, LocationType, TransportCallType } from './location.js';

export const EventClassifierCodeEnum = builder.enumType('EventClassifierCode', {
  values: {
    ACT: { description: 'Actual: has happened.' },
    EST: { description: 'Estimated: a forecast.' },
    PLN: { description: 'Planned: from the carrier schedule.' },
  },
});

export const EventTypeEnum = builder.enumType('EventType', { values: ['SHIPMENT', 'TRANSPORT', 'EQUIPMENT'] as const });

/** The common fields of the spec's events. */
export const EventInterface = builder.interfaceRef<TrackingEvent>('Event').implement({
  description: 'Common fields of shipment, transport and equipment events (DCSA Track & Trace 2.2).',
  resolveType: (event) =>
    event.eventType === 'SHIPMENT' ? 'ShipmentEvent' : event.eventType === 'TRANSPORT' ? 'TransportEvent' : 'EquipmentEvent',
  fields: (t) => ({
    eventID: t.exposeString('eventID', { description: 'UUID' }),
    eventType: t.expose('eventType', { type: EventTypeEnum }),
    eventDateTime: t.exposeString('eventDateTime', { description: 'Time of the milestone, ISO 8601 UTC.' }),
    eventCreatedDateTime: t.exposeString('eventCreatedDateTime', { description: 'When the event was created, ISO 8601 UTC.' }),
    eventClassifierCode: t.expose('eventClassifierCode', { type: EventClassifierCodeEnum }),
  }),
});

export const ShipmentEventType = builder.objectRef<ShipmentEvent>('ShipmentEvent').implement({
  interfaces: [EventInterface],
  isTypeOf: (e) => (e as TrackingEvent).eventType === 'SHIPMENT',
  fields: (t) => ({
    documentReferences: t.expose('documentReferences', { type: [DocumentReferenceType], nullable: true }),
    documentID: t.exposeString('documentID'),
    documentTypeCode: t.exposeString('documentTypeCode', { description: 'e.g. BKG, TRD.' }),
    shipmentEventTypeCode: t.exposeString('shipmentEventTypeCode', { description: 'e.g. CONF (booking confirmed), ISSU (bill of lading issued).' }),
  }),
});

export const TransportEventType = builder.objectRef<TransportEvent>('TransportEvent').implement({
  interfaces: [EventInterface],
  isTypeOf: (e) => (e as TrackingEvent).eventType === 'TRANSPORT',
  fields: (t) => ({
    documentReferences: t.expose('documentReferences', { type: [DocumentReferenceType], nullable: true }),
    transportCall: t.expose('transportCall', { type: TransportCallType }),
    transportEventTypeCode: t.exposeString('transportEventTypeCode', { description: 'DEPA (departure) or ARRI (arrival).' }),
  }),
});

export const EquipmentEventType = builder.objectRef<EquipmentEvent>('EquipmentEvent').implement({
  interfaces: [EventInterface],
  isTypeOf: (e) => (e as TrackingEvent).eventType === 'EQUIPMENT',
  fields: (t) => ({
    eventLocation: t.expose('eventLocation', { type: LocationType, nullable: true }),
    transportCall: t.expose('transportCall', { type: TransportCallType, nullable: true }),
    emptyIndicatorCode: t.exposeString('emptyIndicatorCode', { description: 'LADEN or EMPTY.' }),
    equipmentReference: t.exposeString('equipmentReference', { description: 'Container number.' }),
    equipmentEventTypeCode: t.exposeString('equipmentEventTypeCode', { description: 'GTOT, GTIN, LOAD or DISC.' }),
  }),
});
