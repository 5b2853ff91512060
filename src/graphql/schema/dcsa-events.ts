import { z } from 'zod';
import { READ_SCOPE } from '../../auth/scopes.js';
import type { TrackingEvent } from '../../domain/types.js';
import { policy } from '../../executor/field-policy.js';
import {
  DEFAULT_EVENT_LIMIT,
  DEFAULT_EVENT_SORT,
  EVENT_FILTER_SCHEMA,
  EVENT_SORT_FIELDS,
  LIMIT_SCHEMA,
  TIME_RANGE_SCHEMA,
  decodeEventCursor,
  encodeEventCursor,
  parseOrRefuse,
  parseSort,
  withoutEmptyLists,
  type EventPageQuery,
  type PageBoundary,
} from '../../arguments/dcsa-event-query.js';
import { DCSA, lookupError } from '../../errors/errors.js';
import { readEventPage, type EventPageRow } from '../../store/events/dcsa-events.js';
import { builder } from '../builder.js';
import { connectionOf, pagingDirection } from '../connection.js';
import {
  DocumentTypeCodeEnum,
  EquipmentEventTypeCodeEnum,
  EventInterface,
  EventTypeEnum,
  ShipmentEventTypeCodeEnum,
  TransportEventTypeCodeEnum,
} from './events.js';

/**
 * The `events` field: stored events the caller's accounts may see, with the DCSA Track & Trace 2.2 filters and
 * cursor pagination. GET /v2/events runs it (src/rest/events-handler.ts) and answers its events in 2.2
 * spelling; DCSA notifications render through it too (src/push/dcsa-notification-bodies.ts), as the
 * subscription's owner.
 */

interface EventPage {
  events: TrackingEvent[];
  currentPage: string;
  nextPage: string | null;
  previousPage: string | null;
  firstPage: string | null;
  lastPage: string | null;
}

const EventPageType = builder.objectRef<EventPage>('EventPage').implement({
  description: 'A page of events, and the cursors of the pages around it (DCSA Current-Page, Next-Page, …).',
  fields: (t) => ({
    events: t.field({ type: [EventInterface], description: 'The events, in the requested order.', resolve: (p) => p.events }),
    currentPage: t.exposeString('currentPage', { description: 'The cursor of this page.' }),
    nextPage: t.exposeString('nextPage', { nullable: true, description: 'The cursor of the next page; null on the last page.' }),
    previousPage: t.exposeString('previousPage', {
      nullable: true,
      description: 'The cursor of the previous page; null on the first page.',
    }),
    firstPage: t.exposeString('firstPage', { nullable: true, description: 'The cursor of the first page; null on the first page.' }),
    lastPage: t.exposeString('lastPage', { nullable: true, description: 'The cursor of the last page; null on the last page.' }),
  }),
});

const EventTimeRangeInput = builder.inputType('EventTimeRange', {
  description: 'Bounds on eventCreatedDateTime (DCSA `eventCreatedDateTime:gte` and so on); ISO 8601 with an offset.',
  fields: (t) => ({
    gte: t.string({ description: 'At or after.' }),
    gt: t.string({ description: 'After.' }),
    lte: t.string({ description: 'At or before.' }),
    lt: t.string({ description: 'Before.' }),
    eq: t.string({ description: 'Exactly at.' }),
  }),
});

const LIST = (what: string) =>
  `${what}; any of them (OR). Values: the DCSA Track & Trace 2.2 enum (events with codes outside it are not published).`;

builder.queryField('events', (t) =>
  t.field({
    ...policy({ access: { scope: READ_SCOPE }, quota: 'lookups' }),
    deprecationReason: 'Use eventsConnection',
    type: EventPageType,
    description:
      'Events of the shipments your account may see, as DCSA Track & Trace 2.2 GET /v2/events selects them: every ' +
      'filter given must hold. Without a cursor, the first page; with one, the page it names (the cursor carries the ' +
      'filters, sort and limit of its query: give the others only as they were, or not at all).',
    args: {
      eventType: t.arg.stringList({ description: LIST('SHIPMENT, TRANSPORT or EQUIPMENT') }),
      shipmentEventTypeCode: t.arg.stringList({ description: LIST('Shipment events with these codes') }),
      documentTypeCode: t.arg.stringList({ description: LIST('Shipment events about these kinds of document') }),
      carrierBookingReference: t.arg.string({ description: 'Events of the shipment with this carrier booking reference.' }),
      transportDocumentReference: t.arg.string({ description: 'Events of the shipment with this bill of lading number.' }),
      transportEventTypeCode: t.arg.stringList({ description: LIST('Transport events with these codes (ARRI, DEPA)') }),
      transportCallID: t.arg.string({ description: 'Events at this transport call (see TransportCall.transportCallID).' }),
      vesselIMONumber: t.arg.string({ description: "Events whose transport call's vessel has this IMO number." }),
      exportVoyageNumber: t.arg.string({ description: "Events whose transport call's export voyage is this." }),
      carrierServiceCode: t.arg.string({ description: "Events whose transport call's service is this." }),
      UNLocationCode: t.arg.string({ description: "Events at this UN/LOCODE (the transport call's, or an equipment event's location)." }),
      equipmentEventTypeCode: t.arg.stringList({ description: LIST('Equipment events with these codes') }),
      equipmentReference: t.arg.string({ description: 'Equipment events of this container.' }),
      carrierCode: t.arg.string({ description: 'Not in the DCSA standard: events this carrier (SCAC) published.' }),
      eventCreatedDateTime: t.arg({ type: EventTimeRangeInput, description: 'Bounds on when the events were created.' }),
      sort: t.arg.string({
        description: `Order: ${EVENT_SORT_FIELDS.join(' or ')}, each optionally :ASC or :DESC, comma-separated; default eventCreatedDateTime:ASC.`,
      }),
      limit: t.arg.int({ description: `Events per page, 1 to 1000; default ${DEFAULT_EVENT_LIMIT}.` }),
      cursor: t.arg.string({ description: 'A page cursor from an earlier page (currentPage, nextPage, …).' }),
      eventIDs: t.arg.stringList({ description: 'Only these events (at most 1000), e.g. those a notification names.' }),
    },
    resolve: async (_root, args, ctx) => {
      const principal = await ctx.principal();
      const query = pageQuery(args);
      const eventIds = args.eventIDs
        ? parseOrRefuse(z.array(z.string().max(36)).max(1000, 'eventIDs lists at most 1000'), args.eventIDs)
        : undefined;
      const page = await readEventPage(ctx.services.database.db, {
        accountIds: principal.accountIds,
        ...query,
        ...(eventIds ? { eventIds } : {}),
      });
      return eventPage(query, page.rows, page.more);
    },
  }),
);

type EventArgs = Record<string, unknown> & { cursor?: string | null; sort?: string | null; limit?: number | null };

const QUERY_ARGS = ['eventCreatedDateTime', 'sort', 'limit'] as const;

/** The query of a request: from its cursor, or from its arguments (checked, with the defaults). */
function pageQuery(args: EventArgs, cursorProperty = 'cursor'): EventPageQuery {
  const given = Object.fromEntries(
    Object.entries(args).filter(([k, v]) => v !== null && v !== undefined && k !== 'cursor' && k !== 'eventIDs'),
  );
  const fresh = (): EventPageQuery => {
    const { eventCreatedDateTime, sort, limit, ...filter } = given as EventArgs & { eventCreatedDateTime?: Record<string, unknown> };
    const sorted = sort === undefined ? [...DEFAULT_EVENT_SORT] : parseSort(String(sort));
    if (typeof sorted === 'string') throw refusal('sort', sorted);
    return {
      filter: withoutEmptyLists(parseOrRefuse(EVENT_FILTER_SCHEMA, filter)),
      created: withoutNulls(parseOrRefuse(TIME_RANGE_SCHEMA, withoutNulls(eventCreatedDateTime ?? {}))),
      sort: sorted,
      limit: limit === undefined ? DEFAULT_EVENT_LIMIT : parseOrRefuse(LIMIT_SCHEMA, limit),
      position: { at: 'start' },
    };
  };
  if (args.cursor === undefined || args.cursor === null) return fresh();
  const query = decodeEventCursor(args.cursor);
  if (!query) {
    throw refusal(cursorProperty, `${cursorProperty} is not a page cursor this service handed out (Current-Page, Next-Page, …)`);
  }
  // A client may send the query again with the cursor: accepted when it is the cursor's own.
  if (Object.keys(given).length > 0) {
    const again = fresh();
    for (const name of [...Object.keys(again.filter), ...QUERY_ARGS]) {
      const same =
        name === 'eventCreatedDateTime'
          ? JSON.stringify(again.created) === JSON.stringify(query.created)
          : name === 'sort'
            ? JSON.stringify(again.sort) === JSON.stringify(query.sort)
            : name === 'limit'
              ? again.limit === query.limit
              : JSON.stringify(again.filter[name as keyof typeof again.filter]) ===
                JSON.stringify(query.filter[name as keyof typeof query.filter]);
      if (name in given && !same) {
        throw refusal(name, `${name} differs from the query the cursor carries; send the cursor alone, or with its own query`);
      }
    }
    const missing = Object.keys(query.filter).find((name) => !(name in given));
    if (missing)
      throw refusal(missing, `${missing} is part of the cursor's query but missing; send the cursor alone, or with its whole query`);
  }
  return query;
}

function withoutNulls<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined)) as T;
}

function refusal(property: string, message: string) {
  return lookupError('BAD_USER_INPUT', message, [{ ...DCSA.invalidParameter, property, errorCodeMessage: message }]);
}

/** The page and the cursors around it (DCSA Current-Page, Next-Page, Prev-Page, First-Page, Last-Page). */
function eventPage(query: EventPageQuery, rows: EventPageRow[], more: boolean): EventPage {
  const at = (position: EventPageQuery['position']) => encodeEventCursor({ ...query, position });
  const boundary = (row: EventPageRow): PageBoundary => ({ values: row.values, seq: row.seq });
  const p = query.position;
  const backward = 'before' in p || ('at' in p && p.at === 'end');
  const hasNext = backward ? !('at' in p) : more;
  const hasPrevious = backward ? more : !('at' in p);
  const first = rows[0];
  const last = rows.at(-1);
  return {
    events: rows.map((r) => r.event),
    currentPage: at(p),
    nextPage: hasNext && last ? at({ after: boundary(last) }) : null,
    previousPage: hasPrevious && first ? at({ before: boundary(first) }) : null,
    firstPage: hasPrevious ? at({ at: 'start' }) : null,
    lastPage: hasNext ? at({ at: 'end' }) : null,
  };
}

const EventConnectionType = builder.connectionObject(
  { type: EventInterface, name: 'EventConnection', description: 'A page of events, in the requested order.' },
  { description: 'An event, and the cursor to page on from it (forward or backward).' },
);

const MAX_CONNECTION_EVENTS = 1000;

builder.queryField('eventsConnection', (t) =>
  t.field({
    ...policy({ access: { scope: READ_SCOPE }, quota: 'lookups' }),
    type: EventConnectionType,
    description:
      'Events of the shipments your account may see, with the DCSA Track & Trace 2.2 filters (every filter given must hold), ' +
      'forward (first, after) or backward (last, before). A cursor carries the filters and sort of its query: send them again ' +
      'as they were, or not at all.',
    args: {
      first: t.arg.int({ description: `Events per page, 1 to ${MAX_CONNECTION_EVENTS}; default ${DEFAULT_EVENT_LIMIT}.` }),
      after: t.arg.string({ description: 'A cursor of an earlier page: the events after it.' }),
      last: t.arg.int({ description: `Events per page read backward, 1 to ${MAX_CONNECTION_EVENTS}.` }),
      before: t.arg.string({ description: 'A cursor of an earlier page: the events before it.' }),
      eventType: t.arg({ type: [EventTypeEnum], description: LIST('SHIPMENT, TRANSPORT or EQUIPMENT') }),
      shipmentEventTypeCode: t.arg({ type: [ShipmentEventTypeCodeEnum], description: LIST('Shipment events with these codes') }),
      documentTypeCode: t.arg({ type: [DocumentTypeCodeEnum], description: LIST('Shipment events about these kinds of document') }),
      carrierBookingReference: t.arg.string({ description: 'Events of the shipment with this carrier booking reference.' }),
      transportDocumentReference: t.arg.string({ description: 'Events of the shipment with this bill of lading number.' }),
      transportEventTypeCode: t.arg({ type: [TransportEventTypeCodeEnum], description: LIST('Transport events with these codes') }),
      transportCallID: t.arg.string({ description: 'Events at this transport call (see TransportCall.transportCallID).' }),
      vesselIMONumber: t.arg.string({ description: "Events whose transport call's vessel has this IMO number." }),
      exportVoyageNumber: t.arg.string({ description: "Events whose transport call's export voyage is this." }),
      carrierServiceCode: t.arg.string({ description: "Events whose transport call's service is this." }),
      UNLocationCode: t.arg.string({ description: "Events at this UN/LOCODE (the transport call's, or an equipment event's location)." }),
      equipmentEventTypeCode: t.arg({ type: [EquipmentEventTypeCodeEnum], description: LIST('Equipment events with these codes') }),
      equipmentReference: t.arg.string({ description: 'Equipment events of this container.' }),
      carrierCode: t.arg.string({ description: 'Not in the DCSA standard: events this carrier (SCAC) published.' }),
      eventCreatedDateTime: t.arg({ type: EventTimeRangeInput, description: 'Bounds on when the events were created.' }),
      sort: t.arg.string({
        description: `Order: ${EVENT_SORT_FIELDS.join(' or ')}, each optionally :ASC or :DESC, comma-separated; default eventCreatedDateTime:ASC.`,
      }),
    },
    resolve: async (_root, args, ctx) => {
      const { first, after, last, before, ...rest } = args;
      const direction = pagingDirection({ first, after, last, before }, DEFAULT_EVENT_LIMIT, MAX_CONNECTION_EVENTS);
      const cursor = direction.forward ? direction.after : direction.before;
      const property = direction.forward ? 'after' : 'before';
      // The query the cursor carries (its filters, checked against those sent again), or the arguments' own.
      const query = pageQuery({ ...rest, cursor: cursor ?? undefined }, property);
      const boundary = cursor === null ? null : 'after' in query.position ? query.position.after : null;
      if (cursor !== null && !boundary) throw refusal(property, `${property} is not an edge cursor of eventsConnection`);
      const position: EventPageQuery['position'] = boundary
        ? direction.forward
          ? { after: boundary }
          : { before: boundary }
        : { at: direction.forward ? 'start' : 'end' };
      const principal = await ctx.principal();
      const page = await readEventPage(ctx.services.database.db, {
        accountIds: principal.accountIds,
        ...query,
        limit: direction.size,
        position,
      });
      const edgeCursor = (row: EventPageRow) =>
        encodeEventCursor({ ...query, limit: DEFAULT_EVENT_LIMIT, position: { after: { values: row.values, seq: row.seq } } });
      const connection = connectionOf(page.rows, edgeCursor, {
        hasNextPage: direction.forward ? page.more : boundary !== null,
        hasPreviousPage: direction.forward ? boundary !== null : page.more,
      });
      return { ...connection, edges: connection.edges.map((e) => ({ cursor: e.cursor, node: e.node.event })) };
    },
  }),
);
