import type { Impact, TrackingException } from '../../domain/types.js';
import { builder } from '../builder.js';

export const ExceptionCategoryEnum = builder.enumType('ExceptionCategory', {
  values: {
    SCHEDULE: { description: 'Timing problems such as delays and missed connections.' },
    OPERATIONAL: { description: 'Action-required problems such as rollovers, demurrage, detention.' },
  },
});
export const SeverityEnum = builder.enumType('Severity', { values: ['WARNING', 'CRITICAL'] as const });
export const ExceptionStatusEnum = builder.enumType('ExceptionStatus', { values: ['DETECTED', 'RESOLVED'] as const });

export const ImpactType = builder.objectRef<Impact>('Impact').implement({
  fields: (t) => ({
    field: t.exposeString('field', { description: 'Name of the changed field, e.g. eta.' }),
    previousValue: t.exposeString('previousValue'),
    revisedValue: t.exposeString('revisedValue'),
    delayHours: t.exposeFloat('delayHours', { nullable: true, description: 'Present for delays.' }),
  }),
});

export const ExceptionType = builder.objectRef<TrackingException>('Exception').implement({
  fields: (t) => ({
    exceptionID: t.exposeString('exceptionID', { description: 'UUID, stable across updates; the resolved form reuses it.' }),
    exceptionType: t.exposeString('exceptionType', {
      description: 'ETA_DELAY, ROLLOVER, MISSED_CONNECTION, DEMURRAGE_RISK or DETENTION_RISK.',
    }),
    exceptionCategory: t.expose('exceptionCategory', { type: ExceptionCategoryEnum }),
    severity: t.expose('severity', { type: SeverityEnum }),
    status: t.expose('status', { type: ExceptionStatusEnum }),
    detectedDateTime: t.exposeString('detectedDateTime'),
    resolvedDateTime: t.exposeString('resolvedDateTime', { nullable: true, description: 'Only when RESOLVED.' }),
    resolutionType: t.exposeString('resolutionType', {
      nullable: true,
      description: 'Only when RESOLVED: SCHEDULE_RECOVERED, REBOOKED, EVENT_ACTUALIZED, MANUAL_CLEAR or DATA_CORRECTED.',
    }),
    resolutionNote: t.exposeString('resolutionNote', { nullable: true, description: 'Only when RESOLVED.' }),
    title: t.exposeString('title'),
    description: t.exposeString('description'),
    relatedEventID: t.exposeString('relatedEventID', { nullable: true }),
    affectedContainers: t.exposeStringList('affectedContainers'),
    impact: t.expose('impact', { type: ImpactType, nullable: true }),
    recommendedAction: t.exposeString('recommendedAction'),
  }),
});
