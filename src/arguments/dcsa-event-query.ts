import { z } from 'zod';
import {
  DOCUMENT_TYPE_CODE_LIST,
  EQUIPMENT_EVENT_TYPE_CODE_LIST,
  EVENT_TYPES,
  EVENT_TYPE_LIST,
  SHIPMENT_EVENT_TYPE_CODE_LIST,
  TRANSPORT_EVENT_TYPE_CODE_LIST,
} from '../domain/code-lists.js';
import type { EventFilter, TimeRange } from '../domain/dcsa/dcsa-event-filter.js';
import {
  DCSA22_DOCUMENT_TYPE_CODES,
  DCSA22_EQUIPMENT_EVENT_TYPE_CODES,
  DCSA22_SHIPMENT_EVENT_TYPE_CODES,
  DCSA22_TRANSPORT_EVENT_TYPE_CODES,
} from '../domain/dcsa/dcsa-events.js';
import { toUtcIso } from '../domain/timestamps.js';
import { DCSA, lookupError, type DetailedError } from '../errors/errors.js';

/**
 * The rules of DCSA Track & Trace 2.2 filters, sort and pages (README: Consuming the service as a DCSA
 * publisher), shared by GET /v2/events, the GraphQL `events` field and event subscriptions, so each accepts and
 * refuses the same values with the same words (each names the parameter and what it allows). Also the page
 * cursors: opaque to clients, they carry the whole query (filters, sort, page size) and the position.
 */

export const EVENT_SORT_FIELDS = ['eventCreatedDateTime', 'eventDateTime'] as const;
export type EventSortField = (typeof EVENT_SORT_FIELDS)[number];

export interface EventSortKey {
  field: EventSortField;
  direction: 'ASC' | 'DESC';
}

/** The standard's default order (a poller reads events in the order they were created). */
export const DEFAULT_EVENT_SORT: readonly EventSortKey[] = [{ field: 'eventCreatedDateTime', direction: 'ASC' }];
export const DEFAULT_EVENT_LIMIT = 100;
export const MAX_EVENT_LIMIT = 1000;

/** A page boundary: the sort values of an event and its storage order (the tie-break). */
export interface PageBoundary {
  values: string[];
  seq: number;
}

export type PagePosition = { at: 'start' } | { at: 'end' } | { after: PageBoundary } | { before: PageBoundary };

export interface EventPageQuery {
  filter: EventFilter;
  created: TimeRange;
  sort: EventSortKey[];
  limit: number;
  position: PagePosition;
}

const allowed = (values: readonly string[]) => values.join(', ');

function codes<T extends string>(name: string, values: readonly T[]) {
  const one = z.enum(values as unknown as [T, ...T[]], { error: () => `${name} must list values of ${allowed(values)}` });
  return z.array(one).max(values.length * 2, `${name} lists too many values`);
}

function text(name: string, maxLength: number) {
  return z
    .string()
    .min(1, `${name} must not be empty`)
    .max(maxLength, `${name} must be at most ${maxLength} characters`)
    .refine((v) => v.trim() === v, `${name} must not start or end with whitespace`);
}

/** Each filter's values (z.object strips nothing here: callers refuse unknown names first). */
export const EVENT_FILTER_SCHEMA = z.strictObject({
  eventType: codes('eventType', EVENT_TYPES).optional(),
  shipmentEventTypeCode: codes('shipmentEventTypeCode', DCSA22_SHIPMENT_EVENT_TYPE_CODES).optional(),
  documentTypeCode: codes('documentTypeCode', DCSA22_DOCUMENT_TYPE_CODES).optional(),
  carrierBookingReference: text('carrierBookingReference', 35).optional(),
  transportDocumentReference: text('transportDocumentReference', 20).optional(),
  transportEventTypeCode: codes('transportEventTypeCode', DCSA22_TRANSPORT_EVENT_TYPE_CODES).optional(),
  transportCallID: text('transportCallID', 100).optional(),
  vesselIMONumber: z
    .string()
    .regex(/^\d{7}$/, 'vesselIMONumber must be an IMO number: 7 digits')
    .optional(),
  exportVoyageNumber: text('exportVoyageNumber', 50).optional(),
  carrierServiceCode: text('carrierServiceCode', 5).optional(),
  UNLocationCode: z
    .string()
    .regex(/^[A-Z]{2}[A-Z2-9]{3}$/, 'UNLocationCode must be a UN/LOCODE: 2 letters and 3 letters or digits 2-9, e.g. NLRTM')
    .optional(),
  equipmentEventTypeCode: codes('equipmentEventTypeCode', DCSA22_EQUIPMENT_EVENT_TYPE_CODES).optional(),
  equipmentReference: text('equipmentReference', 15).optional(),
  carrierCode: z
    .string()
    .regex(/^[A-Z]{2,4}$/, 'carrierCode must be a carrier SCAC code of 2 to 4 upper-case letters')
    .optional(),
}) satisfies z.ZodType<EventFilter>;

/** A filter without empty lists (an empty list filters nothing, as if it were not given). */
export function withoutEmptyLists(filter: EventFilter): EventFilter {
  return Object.fromEntries(
    Object.entries(filter).filter(([, v]) => v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0)),
  ) as EventFilter;
}

/** An `eventCreatedDateTime` bound: any ISO 8601 date-time with an offset, compared in UTC. */
export function timeBound(name: string) {
  return z.string().transform((value, ctx) => {
    const utc = toUtcIso(value);
    if (utc !== null) return utc;
    ctx.issues.push({
      code: 'custom',
      input: value,
      message: `${name} must be an ISO 8601 date-time with a UTC offset, e.g. 2021-04-01T14:12:56+01:00`,
    });
    return z.NEVER;
  });
}

export const TIME_RANGE_SCHEMA = z.strictObject({
  gte: timeBound('eventCreatedDateTime:gte').optional(),
  gt: timeBound('eventCreatedDateTime:gt').optional(),
  lte: timeBound('eventCreatedDateTime:lte').optional(),
  lt: timeBound('eventCreatedDateTime:lt').optional(),
  eq: timeBound('eventCreatedDateTime').optional(),
});

export const LIMIT_SCHEMA = z
  .int(`limit must be an integer from 1 to ${MAX_EVENT_LIMIT}`)
  .min(1, `limit must be an integer from 1 to ${MAX_EVENT_LIMIT}`)
  .max(MAX_EVENT_LIMIT, `limit must be an integer from 1 to ${MAX_EVENT_LIMIT}`);

/**
 * The `sort` parameter: comma-separated field names, each optionally `:ASC` or `:DESC`; the fields an event can
 * be ordered by are its eventCreatedDateTime and eventDateTime. An error message when it is not one.
 */
export function parseSort(value: string): EventSortKey[] | string {
  const keys: EventSortKey[] = [];
  for (const part of value.split(',')) {
    const [field, direction = 'ASC', ...rest] = part.trim().split(':');
    if (!(EVENT_SORT_FIELDS as readonly string[]).includes(field ?? '') || rest.length > 0 || !/^(ASC|DESC)$/i.test(direction)) {
      return `sort must list fields of ${allowed(EVENT_SORT_FIELDS)}, each optionally followed by :ASC or :DESC, e.g. eventCreatedDateTime:DESC`;
    }
    if (keys.some((k) => k.field === field)) return `sort names ${field} more than once`;
    keys.push({ field: field as EventSortField, direction: direction.toUpperCase() as 'ASC' | 'DESC' });
  }
  return keys;
}

export function formatSort(sort: readonly EventSortKey[]): string {
  return sort.map((k) => `${k.field}:${k.direction}`).join(',');
}

const CURSOR_VERSION = 1;
/** Generous bound on a cursor's length, checked before anything is decoded. */
const MAX_CURSOR_LENGTH = 8192;

const boundary = z.strictObject({ values: z.array(z.string().max(40)).min(1).max(EVENT_SORT_FIELDS.length), seq: z.int().min(0) });
const CURSOR_SCHEMA = z.strictObject({
  v: z.literal(CURSOR_VERSION),
  filter: EVENT_FILTER_SCHEMA,
  created: z.strictObject({
    gte: z.string().optional(),
    gt: z.string().optional(),
    lte: z.string().optional(),
    lt: z.string().optional(),
    eq: z.string().optional(),
  }),
  sort: z
    .array(z.strictObject({ field: z.enum(EVENT_SORT_FIELDS), direction: z.enum(['ASC', 'DESC']) }))
    .min(1)
    .max(EVENT_SORT_FIELDS.length),
  limit: LIMIT_SCHEMA,
  position: z.union([
    z.strictObject({ at: z.enum(['start', 'end']) }),
    z.strictObject({ after: boundary }),
    z.strictObject({ before: boundary }),
  ]),
});

export function encodeEventCursor(query: EventPageQuery): string {
  return Buffer.from(JSON.stringify({ v: CURSOR_VERSION, ...query }), 'utf8').toString('base64url');
}

/** The query a cursor carries, or null when it is not a cursor this service handed out. */
export function decodeEventCursor(cursor: string): EventPageQuery | null {
  if (cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const parsed = CURSOR_SCHEMA.safeParse(json);
  if (!parsed.success) return null;
  const { v: _version, ...query } = parsed.data;
  const sortFields = query.sort.length;
  const position = query.position;
  if (
    ('after' in position && position.after.values.length !== sortFields) ||
    ('before' in position && position.before.values.length !== sortFields)
  ) {
    return null;
  }
  return query as EventPageQuery;
}

/** `value` parsed by `schema`, or the BAD_USER_INPUT error (400 on REST) with one detail per problem. */
export function parseOrRefuse<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const details: DetailedError[] = parsed.error.issues.map((issue) => {
    const property = issue.path
      .filter((k) => typeof k !== 'number')
      .map(String)
      .join('.');
    return { ...DCSA.invalidParameter, ...(property ? { property } : {}), errorCodeMessage: issue.message.slice(0, 300) };
  });
  throw lookupError('BAD_USER_INPUT', details.map((d) => d.errorCodeMessage).join('; '), details);
}

/** The list filters and the code list each is typed with in GraphQL (src/graphql/schema/event-subscription.ts). */
const FILTER_CODE_LISTS = {
  eventType: EVENT_TYPE_LIST,
  shipmentEventTypeCode: SHIPMENT_EVENT_TYPE_CODE_LIST,
  documentTypeCode: DOCUMENT_TYPE_CODE_LIST,
  transportEventTypeCode: TRANSPORT_EVENT_TYPE_CODE_LIST,
  equipmentEventTypeCode: EQUIPMENT_EVENT_TYPE_CODE_LIST,
} as const;

/**
 * The refusal of a REST body whose list filters hold a value outside their GraphQL enum (which variable coercion
 * would refuse in GraphQL's words), worded as the filter's own check words it; undefined when there is none.
 */
export function unknownFilterCode(body: Record<string, unknown>) {
  const names = (Object.keys(FILTER_CODE_LISTS) as (keyof typeof FILTER_CODE_LISTS)[]).filter((name) => {
    const value = body[name];
    if (value === undefined || value === null) return false;
    const list = FILTER_CODE_LISTS[name];
    return (Array.isArray(value) ? value : [value]).some((code) => typeof code !== 'string' || !Object.hasOwn(list, code));
  });
  if (names.length === 0) return undefined;
  // GraphQL coerces a single value to a list of one: checked as that list.
  const picked = Object.fromEntries(names.map((name) => [name, Array.isArray(body[name]) ? body[name] : [body[name]]]));
  try {
    parseOrRefuse(EVENT_FILTER_SCHEMA.pick(Object.fromEntries(names.map((name) => [name, true])) as never), picked);
  } catch (error) {
    return error as ReturnType<typeof lookupError>;
  }
  return undefined;
}
