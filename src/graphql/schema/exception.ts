import {
  EXCEPTION_CATEGORY_LIST,
  EXCEPTION_STATUS_LIST,
  EXCEPTION_TYPE_LIST,
  RESOLUTION_TYPE_LIST,
  SEVERITY_LIST,
} from '../../domain/enumerations.js';
import type { Impact, TrackingException } from '../../domain/types.js';
import { builder } from '../builder.js';
import { codeListEnum } from '../code-list-enum.js';

export const ExceptionTypeEnum = codeListEnum('ExceptionType', 'The kind of problem an exception reports.', EXCEPTION_TYPE_LIST);
export const ExceptionCategoryEnum = codeListEnum('ExceptionCategory', 'The family of an exception type.', EXCEPTION_CATEGORY_LIST);
export const SeverityEnum = codeListEnum('Severity', 'How urgent an exception is.', SEVERITY_LIST);
export const ExceptionStatusEnum = codeListEnum('ExceptionStatus', 'Whether an exception is open.', EXCEPTION_STATUS_LIST);
export const ResolutionTypeEnum = codeListEnum('ResolutionType', 'Why an exception was resolved.', RESOLUTION_TYPE_LIST);

export const ImpactType = builder.objectRef<Impact>('Impact').implement({
  description: 'What an exception changed. On a resolved exception, the move from the exception state to the recovered state.',
  fields: (t) => ({
    field: t.exposeString('field', { description: 'Name of the changed field, e.g. eta.' }),
    previousValue: t.exposeString('previousValue', {
      description: 'The value before the change; on a resolved exception, the delayed value.',
    }),
    revisedValue: t.exposeString('revisedValue', {
      description: 'The value after the change; on a resolved exception, the recovered value.',
    }),
    delayHours: t.exposeFloat('delayHours', {
      nullable: true,
      description: 'Present for delays: hours late against the original plan (on a resolved exception, the remaining delay).',
    }),
  }),
});

const ONLY_WHEN_RESOLVED = 'Only when RESOLVED';

export const TrackingExceptionType = builder.objectRef<TrackingException>('Exception').implement({
  description:
    'A schedule or operational problem of the shipment, carried inline in the snapshot. It keeps its exceptionID ' +
    'through updates and resolution; resolved exceptions stay in the list so pollers see the resolution.',
  fields: (t) => ({
    exceptionID: t.exposeString('exceptionID', { description: 'UUID, stable across updates; the resolved form reuses it.' }),
    exceptionType: t.expose('exceptionType', { type: ExceptionTypeEnum, description: 'The kind of problem.' }),
    exceptionCategory: t.expose('exceptionCategory', {
      type: ExceptionCategoryEnum,
      description: 'SCHEDULE (timing problems) or OPERATIONAL (action-required problems).',
    }),
    severity: t.expose('severity', { type: SeverityEnum, description: 'WARNING or CRITICAL.' }),
    status: t.expose('status', { type: ExceptionStatusEnum, description: 'DETECTED or RESOLVED.' }),
    detectedDateTime: t.expose('detectedDateTime', { type: 'DateTime', description: 'When first raised.' }),
    resolvedDateTime: t.expose('resolvedDateTime', {
      type: 'DateTime',
      nullable: true,
      description: `${ONLY_WHEN_RESOLVED}: when it was resolved.`,
    }),
    resolutionType: t.expose('resolutionType', {
      type: ResolutionTypeEnum,
      nullable: true,
      description: `${ONLY_WHEN_RESOLVED}: why it was resolved.`,
    }),
    resolutionNote: t.exposeString('resolutionNote', {
      nullable: true,
      description: `${ONLY_WHEN_RESOLVED}: human-readable details of the resolution.`,
    }),
    title: t.exposeString('title', { description: 'Human-readable one-line summary.' }),
    description: t.exposeString('description', { description: 'Human-readable account of the problem.' }),
    relatedEventID: t.exposeString('relatedEventID', {
      nullable: true,
      description: 'The event that triggered the exception (or its latest update).',
    }),
    affectedContainers: t.exposeStringList('affectedContainers', { description: 'Numbers of the containers concerned.' }),
    impact: t.expose('impact', { type: ImpactType, nullable: true, description: 'The changed value, e.g. the eta.' }),
    recommendedAction: t.exposeString('recommendedAction', { description: 'Suggested next step.' }),
  }),
});
