import { describe, expect, it } from 'vitest';
import type { BundleIssue, IngestBundle } from '../src/domain/bundle.js';
import { MAX_LISTED_ISSUES } from '../src/ingest/bundle-issues.js';
import { parseBundle } from '../src/ingest/parse-bundle.js';
import {
  CARRIER,
  CONTAINER_A,
  eventId,
  rawEquipmentEvent,
  rawShipment,
  rawShipmentEvent,
  rawTransportEvent,
} from './support/ingest-fixtures.js';

function parsed(raw: unknown): IngestBundle {
  const result = parseBundle(raw);
  if (!result.ok) throw new Error(`expected a valid bundle, got ${JSON.stringify(result.issues, null, 2)}`);
  return result.bundle;
}

function issuesOf(raw: unknown): BundleIssue[] {
  const result = parseBundle(raw);
  if (result.ok) throw new Error('expected the bundle to be rejected');
  return result.issues;
}

/** A bundle with a single event, for tests about one event's fields. */
function withEvent(event: unknown) {
  return { carrierCode: CARRIER, events: [event] };
}

describe('parseBundle: valid bundles', () => {
  it('accepts DCSA 2.2 events and normalizes them to the spec spelling with UTC timestamps', () => {
    const bundle = parsed(withEvent(rawTransportEvent(1)));
    expect(bundle.events).toEqual([
      {
        eventID: eventId(1),
        eventType: 'TRANSPORT',
        eventClassifierCode: 'EST',
        eventCreatedDateTime: '2024-03-02T07:00:00.000Z',
        eventDateTime: '2024-03-29T22:00:00.000Z',
        transportEventTypeCode: 'ARRI',
        documentReferences: [{ documentReferenceType: 'BKG', documentReferenceValue: 'BKG100' }],
        transportCall: {
          transportCallID: 'TC-SGSIN-401E',
          carrierServiceCode: 'AE7',
          exportVoyageNumber: '401E',
          unLocationCode: 'SGSIN',
          facilityCode: 'ECT',
          facilityCodeListProvider: 'SMDG',
          facilityTypeCode: 'POTE',
          modeOfTransport: 'VESSEL',
          vessel: { vesselIMONumber: '9321483', vesselName: 'MAERSK ESSEN' },
        },
      },
    ]);
    // DCSA fields the service does not model are dropped, not stored.
    const [event] = bundle.events;
    if (event?.eventType !== 'TRANSPORT') throw new Error('expected a transport event');
    const call = event.transportCall;
    expect(call).not.toHaveProperty('UNLocationCode');
    expect(call.vessel).not.toHaveProperty('vesselFlag');
    expect(bundle.events[0]).not.toHaveProperty('delayReasonCode');
  });

  it('gives the same result for the spec spelling and the DCSA spelling', () => {
    const dcsa = rawTransportEvent(1);
    const spec = rawTransportEvent(1, {
      transportCall: { ...(dcsa.transportCall as object), UNLocationCode: undefined, unLocationCode: 'SGSIN' },
    });
    expect(parsed(withEvent(spec))).toEqual(parsed(withEvent(dcsa)));
  });

  it('takes the UN/LOCODE of a transport call from its location when only the location has it', () => {
    const event = rawEquipmentEvent(1, {
      transportCall: { transportCallID: 'TC-1', modeOfTransport: 'TRUCK', location: { UNLocationCode: 'DEHAM', locationName: 'Hamburg' } },
    });
    const [normalized] = parsed(withEvent(event)).events;
    expect(normalized).toMatchObject({
      transportCall: { unLocationCode: 'DEHAM', modeOfTransport: 'TRUCK', location: { unLocationCode: 'DEHAM', locationName: 'Hamburg' } },
    });
  });

  it('uses the deprecated carrierVoyageNumber as the export voyage when no exportVoyageNumber is given', () => {
    const event = rawTransportEvent(1);
    const call = { ...(event.transportCall as Record<string, unknown>), exportVoyageNumber: undefined, carrierVoyageNumber: '402W' };
    const [normalized] = parsed(withEvent({ ...event, transportCall: call })).events;
    expect(normalized).toMatchObject({ transportCall: { exportVoyageNumber: '402W' } });
  });

  it('converts any UTC offset, including negative and half-hour ones, to canonical UTC', () => {
    const event = rawShipmentEvent(1, {
      eventDateTime: '2024-02-20T07:41:00-05:00',
      eventCreatedDateTime: '2019-11-12T07:41:00+08:30',
    });
    expect(parsed(withEvent(event)).events[0]).toMatchObject({
      eventDateTime: '2024-02-20T12:41:00.000Z',
      eventCreatedDateTime: '2019-11-11T23:11:00.000Z',
    });
  });

  it('lower-cases eventIDs, so the idempotency key does not depend on case', () => {
    const event = rawShipmentEvent(1, { eventID: eventId(1).toUpperCase() });
    expect(parsed(withEvent(event)).events[0]?.eventID).toBe(eventId(1));
  });

  it('fills every reference key of shipments and containers, strings with "" and dates with null', () => {
    const [shipment] = parsed({ shipments: [rawShipment()] }).shipments;
    expect(shipment?.references).toEqual({
      customer_name: 'ACME Corp',
      string_ref1: 'PO-4711',
      string_ref2: '',
      string_ref3: '',
      string_ref4: '',
      string_ref5: '',
      string_ref6: '',
      string_ref7: '',
      string_ref8: '',
      cargo_ready_dt: '2024-03-01T08:00:00.000Z',
      si_cutoff_dt: null,
      vgm_cutoff_dt: null,
      booking_dt: null,
      date_ref1: null,
      date_ref2: null,
      date_ref3: null,
      date_ref4: null,
    });
    expect(shipment?.containers[0]?.references).toEqual({
      customer_name: '',
      ...Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`string_ref${i + 1}`, ''])),
      stuffing_dt: null,
      free_time_exp_dt: '2024-04-09T16:00:00.000Z',
      ...Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`date_ref${i + 1}`, null])),
    });
    // A container without references gets them all, empty.
    expect(Object.keys(shipment?.containers[1]?.references ?? {})).toHaveLength(17);
  });

  it('normalizes shipment master data: spec spelling for locations, accounts as a set, container order kept', () => {
    const [shipment] = parsed({
      shipments: [rawShipment({ accounts: ['acme', 'forwarder', 'acme'] })],
    }).shipments;
    expect(shipment).toMatchObject({
      carrierBookingReference: 'BKG100',
      carrierCode: CARRIER,
      billOfLadingNumber: 'MAEUBL100',
      portOfLoading: { locationName: 'Rotterdam', unLocationCode: 'NLRTM' },
      portOfDischarge: { locationName: 'Singapore', unLocationCode: 'SGSIN' },
      accounts: ['acme', 'forwarder'],
    });
    expect(shipment?.containers.map((c) => c.containerNumber)).toEqual([CONTAINER_A, 'MAEU1234567']);
    expect(shipment?.portOfLoading).not.toHaveProperty('UNLocationCode');
  });

  it('treats null optional fields as absent', () => {
    const [shipment] = parsed({ shipments: [rawShipment({ billOfLadingNumber: null, placeOfReceipt: null })] }).shipments;
    expect(shipment).not.toHaveProperty('billOfLadingNumber');
    expect(shipment).not.toHaveProperty('placeOfReceipt');
  });

  it('accepts an empty bundle and a bundle of shipments only without carrierCode', () => {
    expect(parsed({})).toEqual({ shipments: [], events: [] });
    expect(parsed({ shipments: [rawShipment()] }).shipments).toHaveLength(1);
  });

  it('keeps one copy of an event repeated with the same content, even in the other spelling', () => {
    const dcsa = rawTransportEvent(1);
    const spec = rawTransportEvent(1, {
      transportCall: { ...(dcsa.transportCall as object), UNLocationCode: undefined, unLocationCode: 'SGSIN' },
    });
    expect(parsed({ carrierCode: CARRIER, events: [dcsa, spec] }).events).toHaveLength(1);
  });
});

describe('parseBundle: rejected bundles', () => {
  it('names the eventType of an event whose type is an inherited property name, as any unknown type', () => {
    for (const eventType of ['hasOwnProperty', 'constructor', '__proto__']) {
      expect(issuesOf(withEvent({ ...rawTransportEvent(1), eventType }))).toEqual([
        { path: 'events[0].eventType', message: `must be one of SHIPMENT, TRANSPORT, EQUIPMENT; got ${JSON.stringify(eventType)}` },
      ]);
    }
  });

  it('rejects what is not a JSON object', () => {
    for (const raw of [null, [], 'bundle', 42]) {
      expect(issuesOf(raw)).toEqual([{ path: '', message: expect.stringMatching(/must be a JSON object/) }]);
    }
  });

  it('rejects unknown top-level keys', () => {
    expect(issuesOf({ carrierCode: CARRIER, event: [] })).toEqual([{ path: 'event', message: 'is not a known field' }]);
  });

  it('requires carrierCode when there are events', () => {
    expect(issuesOf({ events: [rawShipmentEvent(1)] })).toEqual([
      { path: 'carrierCode', message: expect.stringMatching(/required when the bundle has events/) },
    ]);
  });

  it('rejects a carrier code that is not a SCAC', () => {
    for (const code of ['maeu', 'M', 'MAERSK', 'MA1U']) {
      expect(issuesOf({ carrierCode: code })).toEqual([{ path: 'carrierCode', message: expect.stringMatching(/SCAC/) }]);
    }
  });

  it('reports missing required fields with their path', () => {
    const event = rawEquipmentEvent(1);
    delete event.eventDateTime;
    delete event.emptyIndicatorCode;
    const transportEvent = rawTransportEvent(2);
    delete transportEvent.transportCall;
    expect(issuesOf({ carrierCode: CARRIER, events: [event, transportEvent] })).toEqual([
      { path: 'events[0].eventDateTime', message: 'is required' },
      { path: 'events[0].emptyIndicatorCode', message: 'is required: one of EMPTY, LADEN' },
      { path: 'events[1].transportCall', message: 'is required' },
    ]);
  });

  it('rejects malformed timestamps and says when only the offset is missing', () => {
    const issues = issuesOf({
      carrierCode: CARRIER,
      events: [
        rawShipmentEvent(1, { eventDateTime: '2024-02-20T12:00:00' }),
        rawShipmentEvent(2, { eventDateTime: '2024-02-30T12:00:00Z' }),
        rawShipmentEvent(3, { eventDateTime: '20.02.2024 12:00' }),
        rawShipmentEvent(4, { eventDateTime: '2024-02-20' }),
      ],
    });
    expect(issues).toEqual([
      { path: 'events[0].eventDateTime', message: expect.stringMatching(/has no UTC offset/) },
      { path: 'events[1].eventDateTime', message: expect.stringMatching(/not a valid ISO 8601 timestamp/) },
      { path: 'events[2].eventDateTime', message: expect.stringMatching(/not a valid ISO 8601 timestamp/) },
      { path: 'events[3].eventDateTime', message: expect.stringMatching(/not a valid ISO 8601 timestamp/) },
    ]);
  });

  it('rejects codes outside the DCSA code lists, naming the accepted values', () => {
    const issues = issuesOf({
      carrierCode: CARRIER,
      events: [
        rawShipmentEvent(1, { eventClassifierCode: 'REQ', shipmentEventTypeCode: 'DONE', documentTypeCode: 'XYZ' }),
        rawEquipmentEvent(2, { equipmentEventTypeCode: 'FLY', emptyIndicatorCode: 'FULL' }),
        rawTransportEvent(3, {
          transportEventTypeCode: 'GONE',
          transportCall: { UNLocationCode: 'SGSIN', modeOfTransport: 'SHIP', facilityTypeCode: 'PORT' },
        }),
        { ...rawShipmentEvent(4), eventType: 'CUSTOMS' },
      ],
    });
    expect(issues).toEqual([
      { path: 'events[0].eventClassifierCode', message: 'must be one of ACT, EST, PLN; got "REQ"' },
      { path: 'events[0].documentTypeCode', message: expect.stringMatching(/^must be one of CBR, BKG, .*; got "XYZ"$/) },
      { path: 'events[0].shipmentEventTypeCode', message: expect.stringMatching(/^must be one of RECE, .*; got "DONE"$/) },
      { path: 'events[1].equipmentEventTypeCode', message: expect.stringMatching(/^must be one of LOAD, .*; got "FLY"$/) },
      { path: 'events[1].emptyIndicatorCode', message: 'must be one of EMPTY, LADEN; got "FULL"' },
      { path: 'events[2].transportEventTypeCode', message: 'must be one of ARRI, DEPA; got "GONE"' },
      { path: 'events[2].transportCall.facilityTypeCode', message: expect.stringMatching(/^must be one of BOCR, .*; got "PORT"$/) },
      { path: 'events[2].transportCall.modeOfTransport', message: 'must be one of VESSEL, RAIL, TRUCK, BARGE; got "SHIP"' },
      { path: 'events[3].eventType', message: 'must be one of SHIPMENT, TRANSPORT, EQUIPMENT; got "CUSTOMS"' },
    ]);
  });

  it('rejects wrong types', () => {
    const issues = issuesOf({
      carrierCode: CARRIER,
      shipments: {},
      events: [
        rawTransportEvent(1, { transportCall: { UNLocationCode: 'SGSIN', modeOfTransport: 'VESSEL', transportCallSequenceNumber: '2' } }),
        rawShipmentEvent(2, { documentID: 100 }),
        'not an event',
      ],
    });
    expect(issues).toEqual([
      { path: 'shipments', message: 'must be an array, got an object' },
      { path: 'events[0].transportCall.transportCallSequenceNumber', message: 'must be a number, got "2"' },
      { path: 'events[1].documentID', message: 'must be a string, got number 100' },
      { path: 'events[2]', message: 'must be an object, got "not an event"' },
    ]);
  });

  it('rejects bad container numbers and check digits, in events and on shipments', () => {
    const issues = issuesOf({
      carrierCode: CARRIER,
      shipments: [rawShipment({ containers: [{ containerNumber: 'MSKU1234566' }, { containerNumber: 'MSKU123456' }] })],
      events: [rawEquipmentEvent(1, { equipmentReference: 'MSKU1234560' })],
    });
    expect(issues).toEqual([
      { path: 'shipments[0].containers[0].containerNumber', message: 'container number check digit is 6, expected 5' },
      { path: 'shipments[0].containers[1].containerNumber', message: expect.stringMatching(/must be 11 characters/) },
      { path: 'events[0].equipmentReference', message: 'container number check digit is 0, expected 5' },
    ]);
  });

  it('rejects a vessel IMO number with a wrong check digit', () => {
    const event = rawTransportEvent(1);
    const call = event.transportCall as Record<string, unknown>;
    const issues = issuesOf(withEvent({ ...event, transportCall: { ...call, vessel: { vesselIMONumber: '9321480', vesselName: 'X' } } }));
    expect(issues).toEqual([
      { path: 'events[0].transportCall.vessel.vesselIMONumber', message: 'IMO number check digit is 0, expected 3' },
    ]);
  });

  it('rejects malformed identifiers: UUID, UN/LOCODE, lengths, surrounding whitespace', () => {
    const issues = issuesOf({
      carrierCode: CARRIER,
      shipments: [rawShipment({ carrierBookingReference: ' BKG100', billOfLadingNumber: 'B'.repeat(21) })],
      events: [
        rawTransportEvent(1, {
          eventID: 'event-1',
          transportCall: { UNLocationCode: 'SG-SIN', modeOfTransport: 'VESSEL', facilityCode: 'TOOLONG' },
        }),
      ],
    });
    expect(issues).toEqual([
      { path: 'shipments[0].carrierBookingReference', message: 'must not start or end with whitespace' },
      { path: 'shipments[0].billOfLadingNumber', message: 'must be at most 20 characters' },
      { path: 'events[0].eventID', message: expect.stringMatching(/must be a UUID/) },
      { path: 'events[0].transportCall.UNLocationCode', message: expect.stringMatching(/must be a UN\/LOCODE/) },
      { path: 'events[0].transportCall.facilityCode', message: 'must be at most 6 characters' },
    ]);
  });

  it('requires a UN/LOCODE for every transport call, in either spelling', () => {
    const issues = issuesOf(withEvent(rawTransportEvent(1, { transportCall: { transportCallID: 'TC-1', modeOfTransport: 'VESSEL' } })));
    expect(issues).toEqual([
      { path: 'events[0].transportCall.unLocationCode', message: expect.stringMatching(/is required.*UNLocationCode or unLocationCode/) },
    ]);
  });

  it('rejects both spellings at once when they disagree', () => {
    const issues = issuesOf(
      withEvent(rawTransportEvent(1, { transportCall: { UNLocationCode: 'SGSIN', unLocationCode: 'NLRTM', modeOfTransport: 'VESSEL' } })),
    );
    expect(issues).toEqual([
      { path: 'events[0].transportCall.UNLocationCode', message: '"SGSIN" conflicts with unLocationCode "NLRTM"; send one spelling' },
    ]);
  });

  it('rejects unknown keys in shipments, containers and references, and badly typed references', () => {
    const issues = issuesOf({
      shipments: [
        rawShipment({
          carrierBookingRef: 'X',
          references: { customer_name: 'ACME', string_ref9: 'x', booking_dt: 'yesterday', si_cutoff_dt: null, string_ref2: 7 },
          containers: [{ containerNumber: CONTAINER_A, sealNumber: 'S1', references: { last_free_day: '2024-04-10T00:00:00Z' } }],
        }),
      ],
    });
    expect(issues).toEqual([
      { path: 'shipments[0].references.string_ref2', message: 'must be a string, got number 7' },
      { path: 'shipments[0].references.booking_dt', message: expect.stringMatching(/"yesterday" is not a valid ISO 8601 timestamp/) },
      { path: 'shipments[0].references.string_ref9', message: 'is not a known field' },
      { path: 'shipments[0].containers[0].references.last_free_day', message: 'is not a known field' },
      { path: 'shipments[0].containers[0].sealNumber', message: 'is not a known field' },
      { path: 'shipments[0].carrierBookingRef', message: 'is not a known field' },
    ]);
  });

  it('requires carrierCode and carrierBookingReference on every shipment, and non-empty account ids', () => {
    const shipment = rawShipment({ accounts: ['acme', ''] });
    delete shipment.carrierCode;
    delete shipment.carrierBookingReference;
    expect(issuesOf({ shipments: [shipment] })).toEqual([
      { path: 'shipments[0].carrierBookingReference', message: 'is required' },
      { path: 'shipments[0].carrierCode', message: 'is required' },
      { path: 'shipments[0].accounts[1]', message: 'must not be empty' },
    ]);
  });

  it('rejects a container listed twice on one shipment', () => {
    const issues = issuesOf({
      shipments: [rawShipment({ containers: [{ containerNumber: CONTAINER_A }, { containerNumber: CONTAINER_A }] })],
    });
    expect(issues).toEqual([
      { path: 'shipments[0].containers[1].containerNumber', message: `container ${CONTAINER_A} is already listed at containers[0]` },
    ]);
  });

  it('rejects an eventID used twice with different content, and a shipment given twice differently', () => {
    const issues = issuesOf({
      carrierCode: CARRIER,
      shipments: [rawShipment(), rawShipment({ carrierName: 'Other' })],
      events: [rawTransportEvent(1), rawTransportEvent(1, { eventClassifierCode: 'ACT' })],
    });
    expect(issues).toEqual([
      { path: 'shipments[1].carrierBookingReference', message: expect.stringMatching(/also at shipments\[0\] with different content/) },
      { path: 'events[1].eventID', message: 'eventID is also used by events[0] with different content' },
    ]);
  });

  it(`reports every issue of every entry, capped at ${MAX_LISTED_ISSUES} with a closing note`, () => {
    const events = Array.from({ length: 100 }, (_, i) => rawShipmentEvent(i, { eventClassifierCode: 'XXX' }));
    const issues = issuesOf({ carrierCode: CARRIER, events });
    expect(issues).toHaveLength(MAX_LISTED_ISSUES + 1);
    expect(issues[49]).toEqual({ path: 'events[49].eventClassifierCode', message: expect.any(String) });
    expect(issues[50]).toEqual({ path: '', message: expect.stringMatching(/validation stopped after 50 issues/) });
  });

  it('never throws, whatever the input', () => {
    const cyclic: Record<string, unknown> = { carrierCode: CARRIER };
    cyclic.events = [cyclic];
    for (const raw of [undefined, cyclic, { events: [null, [], 1] }, { shipments: [null, { containers: 'x' }] }]) {
      expect(() => parseBundle(raw)).not.toThrow();
      expect(parseBundle(raw).ok).toBe(false);
    }
  });
});
