import { describe, expect, it } from 'vitest';
import { KNOWN_ISSUE_CORRECTIONS, correctedStandard, publishedStandard } from '../src/domain/dcsa/dcsa-standard.js';
import { DcsaValidator } from './support/dcsa-validator.js';

/**
 * The DCSA Track & Trace 2.2 OpenAPI as the service loads it: the four defects of KNOWN-ISSUES.md are corrected
 * in the loaded copy (src/domain/dcsa/dcsa-standard.ts), each shown here against the published text, and none of
 * them by weakening a schema.
 */
describe('the DCSA Track & Trace 2.2 standard, corrected for its known issues', () => {
  const event = {
    eventID: '3cecb101-7a1a-43a4-9d62-e88a131651e2',
    eventType: 'TRANSPORT',
    eventClassifierCode: 'ACT',
    eventCreatedDateTime: '2024-03-02T08:00:00Z',
    eventDateTime: '2024-03-02T06:00:00Z',
    transportEventTypeCode: 'ARRI',
    transportCall: { transportCallID: 'TC-1', UNLocationCode: 'NLRTM', modeOfTransport: 'VESSEL' },
    documentReferences: [{ documentReferenceType: 'BKG', documentReferenceValue: 'BKG100' }],
  };

  it('corrects exactly the four known issues and the array filters of GET /v2/events, in order', () => {
    expect(KNOWN_ISSUE_CORRECTIONS.map((c) => c.issue)).toEqual([1, 2, 3, 4, 5]);
  });

  it('issue 1: documentReferenceType is BKG or TRD, as real payloads and the examples carry it', () => {
    const published = publishedStandard().components.schemas.documentReferences_inner.properties.documentReferenceType;
    expect(published.enum).toEqual(['BKG (Booking)', 'TRD (Transport Document)']);
    const transportEvent = { $ref: '#/components/schemas/transportEvent' };
    expect(new DcsaValidator(publishedWith([2, 3, 4])).schema(transportEvent)(event)).toBe(false);
    const corrected = new DcsaValidator().schema(transportEvent);
    expect(corrected(event)).toBe(true);
    // Not weakened: anything else is still refused.
    const other = { ...event, documentReferences: [{ documentReferenceType: 'BOK', documentReferenceValue: 'X' }] };
    expect(corrected(other)).toBe(false);
  });

  it('issue 2: errorDateTime is a date-time (the published "$date-time" is no format and would check nothing)', () => {
    expect(publishedStandard().components.schemas.error.properties.errorDateTime.format).toBe('$date-time');
    expect(() => new DcsaValidator(publishedWith([1, 3, 4])).schema({ $ref: '#/components/schemas/error' })).toThrow(/unknown format/);
    const error = new DcsaValidator().schema({ $ref: '#/components/schemas/error' });
    const body = { httpMethod: 'GET', requestUri: '/v2/events', statusCode: 400, statusCodeText: 'Bad Request', errors: [] };
    expect(error({ ...body, errorDateTime: '2024-03-02T08:00:00.000Z' })).toBe(true);
    expect(error({ ...body, errorDateTime: 'yesterday' })).toBe(false);
  });

  it('issue 3: the secret example is the Base64 text of bytes, read as a string', () => {
    const example = correctedStandard().components.schemas.secret.example as unknown;
    expect(typeof example).toBe('string');
    expect(Buffer.from(example as string, 'base64').toString('base64')).toBe(example);
    // A copy whose YAML reader kept the bytes is corrected to the same text.
    const fromBytes = publishedStandard();
    fromBytes.components.schemas.secret.example = Buffer.from(example as string, 'base64');
    KNOWN_ISSUE_CORRECTIONS.find((c) => c.issue === 3)?.apply(fromBytes);
    expect(fromBytes.components.schemas.secret.example).toBe(example);
  });

  it('issue 4: a notification carries Notification-Signature; the deprecated Signature is not required', () => {
    const headers = { 'subscription-id': '8fbdc2d8-57c8-48b9-a04b-18fd8ec1d809', 'api-version': '2.2.0' };
    const signed = { ...headers, 'notification-signature': `sha256=${'ab'.repeat(32)}` };
    expect(new DcsaValidator(publishedWith([1, 2, 3])).notification(signed, [event])).toEqual(['header Signature is missing']);
    const corrected = new DcsaValidator();
    expect(corrected.notification(signed, [event])).toEqual([]);
    expect(corrected.notification(headers, [event])).toEqual(['header Notification-Signature is missing']);
  });

  it('issue 5: the array filters of GET /v2/events have array defaults and examples ("ARRI,DEPA" is two values)', () => {
    const arrays = (standard: Record<string, any>) =>
      Object.fromEntries(
        (standard.paths['/v2/events'].get.parameters as Record<string, any>[])
          .filter((p) => p.schema?.type === 'array' && 'default' in p.schema)
          .map((p) => [p.name, { default: p.schema.default, example: p.example }]),
      );
    const published = arrays(publishedStandard());
    expect(published.transportEventTypeCode).toEqual({ default: 'ARRI,DEPA', example: 'ARRI,DEPA' });
    const corrected = arrays(correctedStandard());
    expect(Object.keys(corrected).sort()).toEqual([
      'documentTypeCode',
      'equipmentEventTypeCode',
      'shipmentEventTypeCode',
      'transportEventTypeCode',
    ]);
    expect(corrected.transportEventTypeCode).toEqual({ default: ['ARRI', 'DEPA'], example: ['ARRI', 'DEPA'] });
    expect(corrected.documentTypeCode?.example).toEqual(['SHI', 'TRD']);
    for (const values of Object.values(corrected) as { default: unknown }[]) expect(Array.isArray(values.default)).toBe(true);
  });
});

/** The published standard with only the given corrections applied. */
function publishedWith(issues: number[]) {
  const standard = publishedStandard();
  for (const c of KNOWN_ISSUE_CORRECTIONS) if (issues.includes(c.issue)) c.apply(standard);
  return standard;
}
