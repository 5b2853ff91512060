import Parser from 'edifact/parser.js';
import {
  EDI_PORT_FUNCTIONS,
  EDI_REFERENCE_QUALIFIERS,
  EDI_SCHEDULE_QUALIFIERS,
  EdiProblem,
  ediContainerNumber,
  ediLocode,
  type EdiStatus,
  type PortRole,
  type SegmentAt,
} from '../domain/edi-status-map.js';
import { edifactStatedTime, placeTime, type StatedTime } from '../domain/edi-times.js';
import { EdiEnvelopeError, readTransaction, type EdiInterchange, type EdiTransaction } from './edi-interchange.js';

/**
 * UN/EDIFACT IFTSTA (International multimodal status report), directory D.99B, as the SMDG message
 * implementation guide lays it out (docs/carriers.md "EDI"), read with `edifact` (node-edifact): it
 * tokenizes the interchange with the separators of its UNA (or the defaults) and the character set of
 * the UNB, and fails on text that is not EDIFACT. The envelope counts it does not check (UNT 0074, UNZ
 * 0036) and the control references (UNT 0062 = UNH 0062, UNZ 0020 = UNB 0020) are checked here: a
 * message whose UNT is wrong is refused alone; a broken UNB/UNZ refuses the interchange.
 */

type Segment = { name: string; elements: string[][] };

const CHARSETS = new Set(['UNOA', 'UNOB', 'UNOC', 'UNOY']);

export function readIftsta(text: string): EdiInterchange[] {
  const segments = tokenize(text.replace(/^\uFEFF/, '').replace(/[\r\n]+$/, ''));
  const interchanges: EdiInterchange[] = [];
  let i = 0;
  while (i < segments.length) {
    const unb = segments[i]!;
    if (unb.name !== 'UNB') throw new EdiEnvelopeError(`expected UNB at segment ${i + 1}, found ${unb.name.slice(0, 3)}`);
    const control = el(unb, 4, 0);
    if (!control) throw new EdiEnvelopeError('UNB has no interchange control reference (0020)');
    const senderId = [el(unb, 1, 0), el(unb, 1, 1)].filter(Boolean).join(':');
    const unbDate = (): string => {
      const [date = '', time = ''] = unb.elements[3] ?? [];
      const stated = edifactStatedTime('iftsta-issued', `${date.length === 6 ? `20${date}` : date}${time}`, '203', {
        tag: 'UNB',
        position: 0,
      });
      return placeTime(stated, undefined, 'utc');
    };
    const transactions: EdiTransaction[] = [];
    let messages = 0;
    let groups = 0;
    i += 1;
    for (;;) {
      const segment = segments[i];
      if (!segment) throw new EdiEnvelopeError(`interchange ${control} is truncated: it has no UNZ segment`);
      if (segment.name === 'UNZ') {
        if (el(segment, 1, 0) !== control)
          throw new EdiEnvelopeError(`UNZ 0020 (${el(segment, 1, 0)}) does not match UNB 0020 (${control})`);
        // UNZ 0036 counts the functional groups when there are any, else the messages.
        const counted = groups > 0 ? groups : messages;
        if (Number(el(segment, 0, 0)) !== counted)
          throw new EdiEnvelopeError(
            `UNZ 0036 (${el(segment, 0, 0)}) does not match the number of ${groups > 0 ? 'groups' : 'messages'} (${counted})`,
          );
        i += 1;
        break;
      }
      if (segment.name === 'UNG' || segment.name === 'UNE') {
        if (segment.name === 'UNG') groups += 1;
        i += 1;
        continue;
      }
      if (segment.name !== 'UNH')
        throw new EdiEnvelopeError(`interchange ${control}: expected UNH or UNZ at segment ${i + 1}, found ${segment.name.slice(0, 3)}`);
      const start = i;
      let end = i + 1;
      while (end < segments.length && segments[end]!.name !== 'UNT' && segments[end]!.name !== 'UNH' && segments[end]!.name !== 'UNZ')
        end += 1;
      if (segments[end]?.name !== 'UNT')
        throw new EdiEnvelopeError(`interchange ${control}: message ${el(segment, 0, 0)} has no UNT segment`);
      const message = segments.slice(start, end + 1);
      const unt = message.at(-1)!;
      const reference = el(segment, 0, 0);
      const at = { tag: 'UNT', position: message.length };
      const type = segment.elements[1] ?? [];
      const problem =
        Number(el(unt, 0, 0)) !== message.length
          ? { problem: `UNT 0074 (${el(unt, 0, 0)}) does not match the number of segments in the message (${message.length})`, at }
          : el(unt, 1, 0) !== reference
            ? { problem: `UNT 0062 (${el(unt, 1, 0)}) does not match UNH 0062 (${reference})`, at }
            : type[0] !== 'IFTSTA' || type[1] !== 'D' || type[2] !== '99B'
              ? { problem: `message ${type.slice(0, 3).join(':')} is not read (IFTSTA:D:99B)`, at: { tag: 'UNH', position: 1 } }
              : undefined;
      transactions.push(
        readTransaction(
          reference,
          message.map((s) => [s.name, ...s.elements.map((e) => e.join(':'))]),
          () => readStatus(message, unbDate),
          problem,
        ),
      );
      messages += 1;
      i = end + 1;
    }
    interchanges.push({ format: 'iftsta', senderId, controlNumber: control, transactions });
  }
  if (interchanges.length === 0) throw new EdiEnvelopeError('the text holds no EDIFACT interchange');
  return interchanges;
}

/** Runs node-edifact's parser over the text, collecting segments as its README shows; the UNB's character set is applied as it is read. */
function tokenize(text: string): Segment[] {
  const parser = new Parser();
  const segments: Segment[] = [];
  let current: Segment | undefined;
  parser.on('opensegment', (name) => {
    current = { name, elements: [] };
    segments.push(current);
  });
  parser.on('element', () => current?.elements.push([]));
  parser.on('component', (value) => {
    current?.elements.at(-1)?.push(value);
    if (current?.name === 'UNB' && current.elements.length === 1 && current.elements[0]!.length === 1) {
      if (!CHARSETS.has(value))
        throw new EdiEnvelopeError(`UNB syntax identifier ${value.slice(0, 4)} is not read (UNOA, UNOB, UNOC, UNOY)`);
      parser.encoding(value);
    }
  });
  try {
    parser.write(text);
    parser.end();
  } catch (err) {
    if (err instanceof EdiEnvelopeError) throw err;
    const reason = err instanceof Error ? err.message : String(err);
    throw new EdiEnvelopeError(
      /incomplete/i.test(reason)
        ? `not a whole EDIFACT interchange: it ends inside a segment (truncated?)`
        : `not a readable EDIFACT interchange: ${reason.slice(0, 200)} (check the separators: UNA, or the defaults + : ' ?)`,
    );
  }
  return segments;
}

function el(segment: Segment, element: number, component: number): string {
  return (segment.elements[element]?.[component] ?? '').trim();
}

function readStatus(message: Segment[], unbDate: () => string): EdiStatus {
  let statusCode: string | undefined;
  let statusAt: SegmentAt | undefined;
  let eventDateTime: StatedTime | undefined;
  let createdDateTime: string | undefined;
  let equipmentReference: string | undefined;
  let empty: boolean | undefined;
  let activityLocode: string | undefined;
  let vessel: EdiStatus['vessel'];
  let voyage: string | undefined;
  const ports: EdiStatus['ports'] = [];
  const references: EdiStatus['references'] = [];
  const schedule: EdiStatus['schedule'] = [];
  let port: { role: PortRole; locode: string } | null = null;
  for (const [index, segment] of message.entries()) {
    const at = { tag: segment.name, position: index + 1 };
    const v = (e: number, c = 0) => el(segment, e, c);
    switch (segment.name) {
      case 'STS':
        if (statusAt) throw new EdiProblem('a second STS: one status per message', at);
        statusCode = v(1);
        statusAt = at;
        break;
      case 'EQD': {
        if (v(0) !== 'CN') break;
        if (equipmentReference) throw new EdiProblem('a second container (EQD+CN): one per message', at);
        equipmentReference = ediContainerNumber({ number: v(1) }, at);
        if (v(5) && v(5) !== '4' && v(5) !== '5') throw new EdiProblem(`EQD 8169 full/empty indicator "${v(5)}" (4 empty, 5 full)`, at);
        if (v(5)) empty = v(5) === '4';
        break;
      }
      case 'RFF': {
        const qualifier = EDI_REFERENCE_QUALIFIERS[v(0, 0)];
        if (qualifier && v(0, 1)) references.push({ type: qualifier.documentReferenceType, value: v(0, 1) });
        break;
      }
      case 'TDT': {
        if (v(1)) voyage = v(1);
        // C222 transport identification: 8213 id, 1131 code list (146 ship's identification), 3055 agency (11 Lloyd's), 8212 name.
        const id = v(7, 0);
        const imo = /^\d{7}$/.test(id) && (v(7, 1) === '146' || v(7, 2) === '11') ? id : undefined;
        if (v(7, 3) || imo) vessel = { ...(v(7, 3) ? { name: v(7, 3) } : {}), ...(imo ? { imo } : {}) };
        break;
      }
      case 'LOC': {
        const fn = EDI_PORT_FUNCTIONS[v(0)];
        if (!fn || fn.format !== 'iftsta') break;
        const locode = ediLocode(v(1), at);
        if (fn.role === 'ACTIVITY') {
          activityLocode = locode;
          port = null;
        } else {
          port = { role: fn.role, locode };
          ports.push(port);
        }
        break;
      }
      case 'DTM': {
        const qualifier = v(0, 0);
        if (qualifier === '137')
          createdDateTime = placeTime(edifactStatedTime('iftsta-issued', v(0, 1), v(0, 2) || undefined, at), undefined, 'utc');
        // The local time of the status location (LOC+175, before or after it), placed when the message is mapped.
        else if (qualifier === '334' || qualifier === '7')
          eventDateTime = edifactStatedTime('iftsta-status', v(0, 1), v(0, 2) || undefined, at);
        else {
          const time = EDI_SCHEDULE_QUALIFIERS[qualifier];
          if (!time || time.format !== 'iftsta' || !time.code) break;
          if (!port) throw new EdiProblem(`DTM ${qualifier} follows no port of loading or discharge (LOC+9, LOC+11)`, at);
          schedule.push({
            code: time.code,
            classifier: time.classifier,
            locode: port.locode,
            dateTime: edifactStatedTime('iftsta-port', v(0, 1), v(0, 2) || undefined, at),
          });
        }
        break;
      }
      default:
        break;
    }
  }
  if (!statusAt || statusCode === undefined) throw new EdiProblem('no STS segment (the status)', null);
  if (!eventDateTime) throw new EdiProblem('no DTM+334 (status change date/time) for the status', statusAt);
  return {
    statusCode,
    statusAt,
    eventDateTime,
    createdDateTime: createdDateTime ?? unbDate(),
    ...(equipmentReference ? { equipmentReference } : {}),
    ...(empty !== undefined ? { empty } : {}),
    ...(activityLocode ? { activityLocode } : {}),
    ...(vessel ? { vessel } : {}),
    ...(voyage ? { voyage } : {}),
    ports,
    references,
    schedule,
  };
}
