import { builder } from '../builder.js';
import { type ShipmentSource } from '../shipment-source.js';
import { ContainerType, containerShipment } from './container.js';
import { ShipmentEventType, TransportEventType } from './events.js';
import { TrackingExceptionType } from './exception.js';
import { LocationType } from './location.js';
import { PredictedArrivalType } from './predicted-arrival.js';
import { MOVES_WITH_TIME } from '../../executor/moving-fields.js';
import { ShipmentReferencesType } from './references.js';

export const ShipmentTrackingType = builder.objectRef<ShipmentSource>('ShipmentTracking').implement({
  description: 'The current tracking snapshot of one shipment.',
  fields: (t) => ({
    bookingReference: t.string({
      nullable: true,
      description: 'Forwarder booking reference.',
      resolve: (s) => s.master.bookingReference ?? null,
    }),
    carrierBookingReference: t.string({
      description: 'Carrier booking number; unique only within its carrier.',
      resolve: (s) => s.master.carrierBookingReference,
    }),
    billOfLadingNumber: t.string({
      nullable: true,
      description: 'Bill of lading number.',
      resolve: (s) => s.master.billOfLadingNumber ?? null,
    }),
    carrierCode: t.string({ description: 'Carrier SCAC code.', resolve: (s) => s.master.carrierCode }),
    carrierName: t.string({
      nullable: true,
      description: 'Human-readable carrier name.',
      resolve: (s) => s.master.carrierName ?? null,
    }),
    vesselName: t.string({ nullable: true, description: 'Main vessel.', resolve: (s) => s.master.vesselName ?? null }),
    voyageNumber: t.string({
      nullable: true,
      description: 'Voyage number of the main vessel.',
      resolve: (s) => s.master.voyageNumber ?? null,
    }),
    portOfLoading: t.field({
      type: LocationType,
      nullable: true,
      description: 'Where the main vessel loads the cargo.',
      resolve: (s) => s.master.portOfLoading ?? null,
    }),
    portOfDischarge: t.field({
      type: LocationType,
      nullable: true,
      description: 'Where the main vessel discharges the cargo.',
      resolve: (s) => s.master.portOfDischarge ?? null,
    }),
    placeOfReceipt: t.field({
      type: LocationType,
      nullable: true,
      description: 'Where the carrier takes charge of the cargo.',
      resolve: (s) => s.master.placeOfReceipt ?? null,
    }),
    placeOfDelivery: t.field({
      type: LocationType,
      nullable: true,
      description: 'Where the carrier hands the cargo over.',
      resolve: (s) => s.master.placeOfDelivery ?? null,
    }),
    serviceType: t.string({
      nullable: true,
      description: 'Scope of carriage, e.g. a port-to-door or door-to-door value.',
      resolve: (s) => s.master.serviceType ?? null,
    }),
    etd: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'Current estimated departure: the best departure event at the port of loading.',
      resolve: (s) => s.row.etd,
    }),
    eta: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'Current estimated arrival: the best arrival event at the port of discharge.',
      resolve: (s) => s.row.eta,
    }),
    predictedArrival: t.field({
      type: PredictedArrivalType,
      nullable: true,
      description:
        "The service's own estimate of the arrival at the port of discharge, with an 80 % interval, learned from its history " +
        "(docs/predicted-arrival.md); not the carrier's word, which `eta` is. Null only when the carrier gave no ETA and " +
        'no history exists. It moves with time, so an answer selecting it is never answered 304, and it is made per request.',
      extensions: { [MOVES_WITH_TIME]: true },
      // Only a selection of it reads the model and the voyage's history (PredictedArrivals).
      resolve: (s, _args, ctx) => ctx.services.predictions.forShipment(s.row, ctx.services.now()),
    }),
    references: t.field({
      type: ShipmentReferencesType,
      description: 'Booking-level reference fields.',
      resolve: (s) => s.master.references,
    }),
    shipmentEvents: t.field({
      type: [ShipmentEventType],
      description: 'One event per milestone, its best version (ACT over EST over PLN, then latest created).',
      resolve: async (s) => (await s.snapshot.events()).shipmentEvents,
    }),
    transportEvents: t.field({
      type: [TransportEventType],
      description: 'One event per milestone, its best version (ACT over EST over PLN, then latest created).',
      resolve: async (s) => (await s.snapshot.events()).transportEvents,
    }),
    containers: t.field({
      type: [ContainerType],
      description: 'The containers of the shipment.',
      resolve: async (s) => {
        const containers = await s.snapshot.containers();
        for (const container of containers) containerShipment.set(container, s.master);
        return containers;
      },
    }),
    exceptions: t.field({
      type: [TrackingExceptionType],
      description: 'Always an array, empty when none; resolved exceptions stay so pollers see the resolution.',
      resolve: (s) => s.snapshot.exceptions(),
    }),
  }),
});
