import type { ContainerSnapshot } from '../../domain/types.js';
import { builder } from '../builder.js';
import { EquipmentEventType } from './events.js';
import { ContainerReferencesType } from './references.js';

export const ContainerType = builder.objectRef<ContainerSnapshot>('Container').implement({
  fields: (t) => ({
    containerNumber: t.exposeString('containerNumber'),
    isoType: t.exposeString('isoType', { nullable: true, description: 'ISO 6346 size and type code.' }),
    references: t.expose('references', { type: ContainerReferencesType }),
    latestEvent: t.expose('latestEvent', {
      type: EquipmentEventType,
      nullable: true,
      description: 'The most recent actual event; before any, the next estimated or planned one.',
    }),
    eventHistory: t.expose('eventHistory', {
      type: [EquipmentEventType],
      description: "The container's events, one per milestone (its best version), in time order.",
    }),
  }),
});
