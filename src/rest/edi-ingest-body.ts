import { EdiUnreadableError, ingestEdi } from '../carriers/edi-ingest.js';
import type { EdiFormat } from '../domain/edi-status-map.js';
import type { AppServices } from '../graphql/context.js';
import { countIngestedBundle, countUnwrittenBundle } from '../observability/metrics.js';
import type { DcsaResponder } from '../errors/dcsa-responses.js';
import { DCSA } from '../errors/errors.js';
import { jsonResponse } from '../http-messages/json-response.js';

/**
 * EDI bodies on the carrier routes (docs/carriers.md "EDI"): a carrier's signed push to
 * /v2/carrier-notifications/{carrierCode} and an operator's POST /v2/operator/ingest?carrierCode=…
 * say their format by Content-Type. Both answer 200 with the summary (the good transactions stored,
 * each bad one named with its interchange, transaction and segment, and kept as a rejected event), or
 * 400 when the interchange cannot be read at all (nothing stored; kept as one rejected entry).
 */

const EDI_CONTENT_TYPES: Readonly<Record<string, EdiFormat>> = {
  'application/edi-x12': 'x12-315',
  'application/edifact': 'iftsta',
};

/** The EDI format a Content-Type names, or null for anything else. */
export function ediFormatOf(contentType: string | null): EdiFormat | null {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return EDI_CONTENT_TYPES[type] ?? null;
}

/** Checks that the carrier sends this format; the refusal, or null to go on. */
export async function refuseUnconfiguredFormat(
  services: AppServices,
  respond: DcsaResponder,
  carrierCode: string,
  format: EdiFormat,
): Promise<Response | null> {
  const carrier = await services.carriers.getCarrier(carrierCode);
  if (!carrier || carrier.status !== 'ACTIVE') {
    return respond.fail(404, [
      { ...DCSA.notFound, property: 'carrierCode', errorCodeMessage: `No active carrier source ${carrierCode.slice(0, 20)}.` },
    ]);
  }
  if (carrier.ediFormats.includes(format)) return null;
  return respond.fail(415, [
    {
      ...DCSA.invalidParameter,
      errorCodeMessage: `Carrier ${carrierCode} is not configured to send ${format} (tracking carrier formats ${carrierCode} ${format}).`,
    },
  ]);
}

export async function ingestEdiBody(
  services: AppServices,
  respond: DcsaResponder,
  input: { carrierCode: string; format: EdiFormat; body: Buffer },
  correlationId: string,
): Promise<Response> {
  // How its times without a zone code are read (`tracking carrier formats --times`; docs/carriers.md "Times").
  const times = (await services.carriers.getCarrier(input.carrierCode))?.ediTimes;
  let summary;
  try {
    summary = await ingestEdi(
      services.database,
      { carrierCode: input.carrierCode, format: input.format, text: input.body.toString('utf8'), ...(times ? { times } : {}) },
      { now: () => services.now(), thresholds: services.config.thresholds, rejectedEventsMax: services.config.carriers.rejectedEventsMax },
    );
  } catch (err) {
    if (!(err instanceof EdiUnreadableError)) throw err;
    countUnwrittenBundle('rejected');
    return respond.invalid(`The ${input.format} interchange cannot be read, nothing was stored: ${err.message}`.slice(0, 300));
  }
  countIngestedBundle({ ...summary, shipmentsCreated: 0, shipmentsUpdated: 0, shipmentsOutdated: 0 });
  if (summary.eventsStored > 0) services.push.wake();
  if (summary.transactionsRejected > 0) {
    services.log('info', 'EDI transactions rejected (kept)', {
      correlationId,
      carrierCode: input.carrierCode,
      format: input.format,
      transactionsRejected: summary.transactionsRejected,
      hint: 'tracking carrier rejected list',
    });
  }
  const { exceptionTransitions: _transitions, ...body } = summary;
  return jsonResponse(body, 200, { 'Cache-Control': 'no-store' });
}
