import type { EquipmentEvent, ShipmentEvent, TrackingEvent, TransportEvent } from '../../domain/types.js';
import {
  DOCUMENT_TYPE_CODE_LIST,
  EMPTY_INDICATOR_CODE_LIST,
  EQUIPMENT_EVENT_TYPE_CODE_LIST,
  EVENT_CLASSIFIER_CODE_LIST,
  EVENT_TYPE_LIST,
  SHIPMENT_EVENT_TYPE_CODE_LIST,
  TRANSPORT_EVENT_TYPE_CODE_LIST,
} from '../../domain/code-lists.js';
import { builder } from '../builder.js';
import { codeListEnum } from '../code-list-enum.js';
import { DocumentReferenceType, LocationType, TransportCallType } from './location.js';

export const EventClassifierCodeEnum = codeListEnum(
  'EventClassifierCode',
  'How certain an event is: ACT over EST over PLN when versions of one milestone compete.',
  EVENT_CLASSIFIER_CODE_LIST,
);

export const EventTypeEnum = codeListEnum('EventType', 'The kind of event.', EVENT_TYPE_LIST);

export const ShipmentEventTypeCodeEnum = codeListEnum(
  'ShipmentEventTypeCode',
  'What happened to a booking or document (DCSA shipment event type codes).',
  SHIPMENT_EVENT_TYPE_CODE_LIST,
);

export const DocumentTypeCodeEnum = codeListEnum(
  'DocumentTypeCode',
  'The kind of document a shipment event is about (DCSA document type codes).',
  DOCUMENT_TYPE_CODE_LIST,
);

export const TransportEventTypeCodeEnum = codeListEnum(
  'TransportEventTypeCode',
  'What a means of transport did at a call.',
  TRANSPORT_EVENT_TYPE_CODE_LIST,
);

export const EquipmentEventTypeCodeEnum = codeListEnum(
  'EquipmentEventTypeCode',
  'What happened to a container (DCSA equipment event type codes).',
  EQUIPMENT_EVENT_TYPE_CODE_LIST,
);

export const EmptyIndicatorCodeEnum = codeListEnum(
  'EmptyIndicatorCode',
  'Whether a container was empty or laden at an event.',
  EMPTY_INDICATOR_CODE_LIST,
);

const DOCUMENT_REFERENCES_DESCRIPTION = 'The booking and transport documents the event refers to.';

const typeNameOf = (event: TrackingEvent) =>
  event.eventType === 'SHIPMENT' ? 'ShipmentEvent' : event.eventType === 'TRANSPORT' ? 'TransportEvent' : 'EquipmentEvent';

/** Events are Nodes (docs/graphql.md, Object identification): their global ID is their type and eventID. */
const NodeInterface = builder.nodeInterfaceRef();

/** The common fields of the spec's events. */
export const EventInterface = builder.interfaceRef<TrackingEvent>('Event').implement({
  description: 'Common fields of shipment, transport and equipment events (DCSA Track & Trace 2.2).',
  interfaces: [NodeInterface],
  resolveType: typeNameOf,
  fields: (t) => ({
    id: t.globalID({
      description: 'Opaque global ID, stable across restarts and equal on every store; pass it to node(id:) or nodes(ids:).',
      resolve: (event) => ({ type: typeNameOf(event), id: event.eventID }),
    }),
    eventID: t.exposeString('eventID', { description: 'The event, a UUID; each version of a milestone has its own.' }),
    eventType: t.expose('eventType', { type: EventTypeEnum, description: 'SHIPMENT, TRANSPORT or EQUIPMENT.' }),
    eventDateTime: t.expose('eventDateTime', { type: 'DateTime', description: 'Time of the milestone.' }),
    eventCreatedDateTime: t.expose('eventCreatedDateTime', { type: 'DateTime', description: 'When the event was created.' }),
    eventClassifierCode: t.expose('eventClassifierCode', {
      type: EventClassifierCodeEnum,
      description: 'ACT (actual, has happened), EST (estimated, forecast) or PLN (planned, from the carrier schedule).',
    }),
  }),
});

export const ShipmentEventType = builder.objectRef<ShipmentEvent>('ShipmentEvent').implement({
  description: 'A booking or document milestone, such as a booking confirmed or a bill of lading issued.',
  interfaces: [NodeInterface, EventInterface],
  isTypeOf: (e) => (e as TrackingEvent).eventType === 'SHIPMENT',
  fields: (t) => ({
    documentReferences: t.expose('documentReferences', {
      type: [DocumentReferenceType],
      nullable: true,
      description: DOCUMENT_REFERENCES_DESCRIPTION,
    }),
    documentID: t.exposeString('documentID', {
      description: 'The document: a carrier booking reference (BKG) or a bill of lading number (TRD).',
    }),
    documentTypeCode: t.expose('documentTypeCode', {
      type: DocumentTypeCodeEnum,
      description: 'The kind of document documentID names (values seen: BKG, TRD).',
    }),
    shipmentEventTypeCode: t.expose('shipmentEventTypeCode', {
      type: ShipmentEventTypeCodeEnum,
      description: 'What happened to the document: CONF = booking confirmed, ISSU = bill of lading issued, …',
    }),
  }),
});

export const TransportEventType = builder.objectRef<TransportEvent>('TransportEvent').implement({
  description: 'A vessel (or other means of transport) departing from or arriving at a transport call.',
  interfaces: [NodeInterface, EventInterface],
  isTypeOf: (e) => (e as TrackingEvent).eventType === 'TRANSPORT',
  fields: (t) => ({
    documentReferences: t.expose('documentReferences', {
      type: [DocumentReferenceType],
      nullable: true,
      description: DOCUMENT_REFERENCES_DESCRIPTION,
    }),
    transportCall: t.expose('transportCall', { type: TransportCallType, description: 'The call the event happened at.' }),
    transportEventTypeCode: t.expose('transportEventTypeCode', {
      type: TransportEventTypeCodeEnum,
      description: 'DEPA = departure, ARRI = arrival.',
    }),
  }),
});

export const EquipmentEventType = builder.objectRef<EquipmentEvent>('EquipmentEvent').implement({
  description: 'A container movement: gate in or out, load, discharge, …',
  interfaces: [NodeInterface, EventInterface],
  isTypeOf: (e) => (e as TrackingEvent).eventType === 'EQUIPMENT',
  fields: (t) => ({
    documentReferences: t.expose('documentReferences', {
      type: [DocumentReferenceType],
      nullable: true,
      description: DOCUMENT_REFERENCES_DESCRIPTION,
    }),
    eventLocation: t.expose('eventLocation', {
      type: LocationType,
      nullable: true,
      description: 'Where the event happened.',
    }),
    transportCall: t.expose('transportCall', {
      type: TransportCallType,
      nullable: true,
      description: 'The transport call the event belongs to, e.g. the vessel a container was loaded on.',
    }),
    emptyIndicatorCode: t.expose('emptyIndicatorCode', { type: EmptyIndicatorCodeEnum, description: 'LADEN or EMPTY.' }),
    equipmentReference: t.exposeString('equipmentReference', { description: 'Container number (ISO 6346).' }),
    equipmentEventTypeCode: t.expose('equipmentEventTypeCode', {
      type: EquipmentEventTypeCodeEnum,
      description: 'GTOT = gate out, GTIN = gate in, LOAD = loaded, DISC = discharged, …',
    }),
  }),
});
