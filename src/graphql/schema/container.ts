import type { ContainerSnapshot } from '../../domain/types.js';
import { builder } from '../builder.js';
import { EquipmentEventType } from './events.js';
import { ContainerReferencesType } from './references.js';

/**
 * The shipment of each container the schema serves: a container number is reused across shipments, so its
 * global ID names its shipment too (src/graphql/schema/node.ts). Recorded where containers are served (a
 * snapshot's containers are the same objects at one version, so an entry stays right while it lives).
 */
export const containerShipment = new WeakMap<ContainerSnapshot, { carrierCode: string; carrierBookingReference: string }>();

export const ContainerType = builder.objectRef<ContainerSnapshot>('Container').implement({
  description: 'A container of the shipment, with its movements.',
  fields: (t) => ({
    containerNumber: t.exposeString('containerNumber', { description: 'Container number (ISO 6346), e.g. MSKU1234565.' }),
    isoType: t.exposeString('isoType', { nullable: true, description: 'ISO 6346 size and type code, e.g. 45G1.' }),
    references: t.expose('references', { type: ContainerReferencesType, description: 'Container-level reference fields.' }),
    latestEvent: t.expose('latestEvent', {
      type: EquipmentEventType,
      nullable: true,
      description: 'The most recent actual event; before any, the next estimated or planned one; null while the container has no event.',
    }),
    eventHistory: t.expose('eventHistory', {
      type: [EquipmentEventType],
      description: "The container's events, one per milestone (its best version), in time order.",
    }),
  }),
});
