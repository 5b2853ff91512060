/**
 * The preset dictionary of stored event payloads, format 0x01 (src/store/events/event-payload.ts). FROZEN: every row
 * written with it needs exactly these bytes to be read again, so it is never edited; a better dictionary is a
 * new constant under a new marker byte.
 *
 * What it holds: the JSON of typical events as ingest stores them (the spec's spelling, the key order of the
 * normalized event, src/domain/types.ts) with empty identifiers, and the DCSA 2.2 code lists' values. Deflate
 * refers back to any of it; nearer the end is cheaper, so the most common text (the key names every event
 * repeats) comes last. Generic on purpose: nothing of one carrier's or one benchmark's data.
 */
const PARTS = [
  // Code lists: equipment, shipment and document types, facilities, modes.
  '"STUF""STRP""PICK""DROP""INSP""RSEA""RMVD""DRFT""PENA""PENU""REJE""APPR""SURR""SUBM""VOID""REQS""CMPL""HOLD""RELS"',
  '"CBR""SHI""SRM""ARN""VGM""CAS""CUS""DGD""OOG""BOCR""CLOC""COFS""OFFD""DEPO""INTE""PBPL""BRTH""RAIL""TRUCK""BARGE""BIC"',
  ',"address":{"name":""},"facilityCode":"","facilityCodeListProvider":"SMDG"',
  ',"transportCallSequenceNumber":1,"carrierServiceCode":""',
  ':00.000Z","eventCreatedDateTime":"2026-',
  // The three event types in full.
  '{"eventID":"","eventDateTime":"2026-01-01T00:00:00.000Z","eventCreatedDateTime":"2026-01-01T00:00:00.000Z",' +
    '"eventClassifierCode":"PLN","eventType":"SHIPMENT","documentReferences":[{"documentReferenceType":"TRD",' +
    '"documentReferenceValue":""}],"documentID":"","documentTypeCode":"BKG","shipmentEventTypeCode":"RECE"}',
  '{"eventID":"","eventDateTime":"2026-01-01T00:00:00.000Z","eventCreatedDateTime":"2026-01-01T00:00:00.000Z",' +
    '"eventClassifierCode":"EST","eventType":"TRANSPORT","documentReferences":[{"documentReferenceType":"BKG",' +
    '"documentReferenceValue":""}],"transportCall":{"transportCallID":"","carrierServiceCode":"","vessel":' +
    '{"vesselName":"","vesselIMONumber":""},"location":{"locationName":"","unLocationCode":"","facilityCode":"",' +
    '"facilityCodeListProvider":"SMDG","address":{"name":""}},"facilityCode":"","unLocationCode":"",' +
    '"modeOfTransport":"VESSEL","facilityTypeCode":"POTE","exportVoyageNumber":"","importVoyageNumber":"",' +
    '"facilityCodeListProvider":"SMDG","transportCallSequenceNumber":1},"transportEventTypeCode":"ARRI"}',
  '{"eventID":"","eventDateTime":"2026-01-01T00:00:00.000Z","eventCreatedDateTime":"2026-01-01T00:00:00.000Z",' +
    '"eventClassifierCode":"ACT","eventType":"EQUIPMENT","documentReferences":[{"documentReferenceType":"BKG",' +
    '"documentReferenceValue":""}],"eventLocation":{"locationName":"","unLocationCode":""},"transportCall":' +
    '{"transportCallID":"","vessel":{"vesselName":"","vesselIMONumber":""},"location":{"locationName":"",' +
    '"unLocationCode":""},"unLocationCode":"","modeOfTransport":"VESSEL","facilityTypeCode":"POTE",' +
    '"exportVoyageNumber":"","importVoyageNumber":""},"emptyIndicatorCode":"LADEN","equipmentReference":"",' +
    '"equipmentEventTypeCode":"LOAD"}',
  '"DEPA""DISC""GTIN""GTOT""CONF""ISSU""EMPTY"',
];

export const EVENT_DICTIONARY_V1: Buffer = Buffer.from(PARTS.join(''), 'utf8');
