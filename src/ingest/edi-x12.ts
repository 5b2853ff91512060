import { X12Parser, type X12Interchange, type X12Segment, type X12Transaction } from 'node-x12';
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
import { placeTime, x12StatedTime } from '../domain/edi-times.js';
import { EdiEnvelopeError, readTransaction, type EdiInterchange, type EdiTransaction } from './edi-interchange.js';

/**
 * ANSI X12 315 (Status Details, Ocean), versions 4010 and 5010, read with node-x12 (docs/carriers.md
 * "EDI"). node-x12 parses the interchange and checks its envelope: separators from the ISA, segment
 * counts (SE01, GE01, IEA01) and control numbers (SE02, GE02, IEA02). It runs in its non-strict mode,
 * which lists those findings with their place instead of throwing on the first, so that a wrong SE01
 * refuses its transaction alone; a broken group or interchange envelope refuses the whole interchange.
 */

const VERSIONS = /^00(401|501)0/;

export function readX12(text: string): EdiInterchange[] {
  const parser = new X12Parser(false);
  let parsed;
  try {
    parsed = parser.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new EdiEnvelopeError(
      `not a readable X12 interchange: ${parser.diagnostics.length > 0 ? misplaced(parser.diagnostics) : libraryMessage(err)}`,
    );
  }
  const interchanges: X12Interchange[] = 'interchanges' in parsed ? parsed.interchanges : [parsed];
  const diagnostics = parser.diagnostics;
  // A segment out of its place (outside any group or transaction): most often separators other than the ISA declares.
  const outside = diagnostics.filter((d) => / segment cannot appear outside of /.test(d.message) || /Missing ST segment/.test(d.message));
  if (outside.length > 0) throw new EdiEnvelopeError(`not a readable X12 interchange: ${misplaced(outside)}`);
  return interchanges.map((interchange) => {
    if (!interchange.header) throw new EdiEnvelopeError('not an X12 interchange: no ISA segment');
    const control = interchange.header.valueOf(13) ?? '';
    if (!interchange.trailer) throw new EdiEnvelopeError(`interchange ${control} is truncated: it has no IEA segment`);
    const txRanges = new Set<object>();
    for (const group of interchange.functionalGroups) {
      if (!group.trailer)
        throw new EdiEnvelopeError(`interchange ${control}: functional group ${group.header?.valueOf(6) ?? ''} has no GE segment`);
      for (const tx of group.transactions) {
        if (!tx.trailer) throw new EdiEnvelopeError(`interchange ${control}: transaction ${tx.header?.valueOf(2) ?? ''} has no SE segment`);
        for (const element of tx.trailer.elements) txRanges.add(element.range);
      }
    }
    // Findings on an SE belong to that transaction; any other (GE, IEA) breaks the envelope.
    const envelope = diagnostics.filter((d) => !txRanges.has(d.range));
    if (envelope.length > 0)
      throw new EdiEnvelopeError(`interchange ${control}: ${envelope.map((d) => stripPrefix(d.message)).join('; ')}`);
    const senderId = `${(interchange.header.valueOf(5) ?? '').trim()}:${(interchange.header.valueOf(6) ?? '').trim()}`;
    const transactions: EdiTransaction[] = [];
    for (const group of interchange.functionalGroups) {
      const version = group.header.valueOf(8) ?? '';
      const created = groupDate(group.header);
      for (const tx of group.transactions) {
        const seFindings = diagnostics.filter((d) => tx.trailer.elements.some((e) => e.range === d.range));
        const se = { tag: 'SE', position: tx.segments.length + 2 };
        const problem =
          seFindings.length > 0
            ? { problem: seFindings.map((d) => stripPrefix(d.message)).join('; '), at: se }
            : tx.header.valueOf(1) !== '315'
              ? { problem: `transaction set ${tx.header.valueOf(1) ?? ''} is not a 315`, at: { tag: 'ST', position: 1 } }
              : !VERSIONS.test(version)
                ? { problem: `version ${version} is not read (004010, 005010)`, at: null }
                : undefined;
        transactions.push(readTransaction(tx.header.valueOf(2) ?? '', segmentsOf(tx), () => readStatus(tx, created()), problem));
      }
    }
    return { format: 'x12-315' as const, senderId, controlNumber: control, transactions };
  });
}

function segmentsOf(tx: X12Transaction): string[][] {
  return [tx.header, ...tx.segments, tx.trailer].map((s) => [s.tag, ...s.elements.map((e) => e.value)]);
}

/** GS04 (CCYYMMDD) and GS05 (HHMM): when the carrier issued the group, the events' eventCreatedDateTime (UTC: it names no location). */
function groupDate(gs: X12Segment): () => string {
  return () =>
    placeTime(x12StatedTime('x12-gs', gs.valueOf(4) ?? '', gs.valueOf(5), undefined, { tag: 'GS', position: 0 }), undefined, 'utc');
}

function readStatus(tx: X12Transaction, createdDateTime: string): EdiStatus {
  let status: Partial<EdiStatus> & { statusAt?: SegmentAt } = {};
  const ports: EdiStatus['ports'] = [];
  const references: EdiStatus['references'] = [];
  const schedule: EdiStatus['schedule'] = [];
  let port: { role: PortRole | null; locode: string | null } | null = null;
  for (const [index, segment] of tx.segments.entries()) {
    const at = { tag: segment.tag, position: index + 2 };
    const v = (n: number) => (segment.valueOf(n) ?? '').trim();
    switch (segment.tag) {
      case 'B4': {
        if (status.statusAt) throw new EdiProblem('a second B4: one status per transaction', at);
        const equipment = v(8)
          ? ediContainerNumber({ initial: v(7), number: v(8), checkDigit: v(13) && v(8).length === 6 ? v(13) : undefined }, at)
          : undefined;
        if (v(13) && v(8).length === 7 && v(8)[6] !== v(13))
          throw new EdiProblem(`B4-13 check digit ${v(13)} differs from B4-08 ${v(8)}`, at);
        const emptyCode = v(9);
        if (emptyCode && emptyCode !== 'E' && emptyCode !== 'L')
          throw new EdiProblem(`B4-09 equipment status "${emptyCode}" (E empty, L loaded)`, at);
        status = {
          statusCode: v(3),
          statusAt: at,
          // The local time of the status location, placed when the transaction is mapped (B4-11 or a port of an R4 below).
          eventDateTime: x12StatedTime('x12-b4', v(4), v(5) || undefined, undefined, at),
          ...(equipment ? { equipmentReference: equipment } : {}),
          ...(emptyCode ? { empty: emptyCode === 'E' } : {}),
          ...(v(11) && v(12) === 'UN' ? { activityLocode: ediLocode(v(11), at) } : {}),
        };
        break;
      }
      case 'N9': {
        const qualifier = EDI_REFERENCE_QUALIFIERS[v(1)];
        if (qualifier && v(2)) references.push({ type: qualifier.documentReferenceType, value: v(2) });
        break;
      }
      case 'Q2': {
        const imo = v(12) === 'L' && /^\d{7}$/.test(v(1)) ? v(1) : undefined;
        status.vessel = { ...(v(13) ? { name: v(13) } : {}), ...(imo ? { imo } : {}) };
        if (v(9)) status.voyage = v(9);
        break;
      }
      case 'R4': {
        const fn = EDI_PORT_FUNCTIONS[v(1)];
        const role = fn?.format === 'x12-315' && fn.role !== 'ACTIVITY' ? fn.role : null;
        if (role && v(2) !== 'UN') throw new EdiProblem(`R4-02 location qualifier "${v(2)}": ports are read as UN/LOCODEs (UN)`, at);
        port = { role, locode: role ? ediLocode(v(3), at) : null };
        if (role && port.locode) ports.push({ role, locode: port.locode });
        break;
      }
      case 'DTM': {
        const qualifier = EDI_SCHEDULE_QUALIFIERS[v(1)];
        if (!qualifier || qualifier.format !== 'x12-315' || !port?.role || !port.locode) break;
        const code = qualifier.code ?? (port.role === 'LOAD' ? 'DEPA' : 'ARRI');
        schedule.push({
          code,
          classifier: qualifier.classifier,
          locode: port.locode,
          dateTime: x12StatedTime('x12-r4-dtm', v(2), v(3) || undefined, v(4) || undefined, at),
        });
        break;
      }
      default:
        break;
    }
  }
  if (!status.statusAt || status.statusCode === undefined || status.eventDateTime === undefined) {
    throw new EdiProblem('no B4 segment (the status)', null);
  }
  return { ...(status as EdiStatus), createdDateTime, ports, references, schedule };
}

/** node-x12's own findings (ParserError) say what is wrong; anything else it threw means it could not follow the text. */
function libraryMessage(err: unknown): string {
  if (err instanceof Error && err.name === 'ParserError') return stripPrefix(err.message);
  return 'it is truncated or malformed';
}

function misplaced(diagnostics: readonly { message: string }[]): string {
  const first = stripPrefix(diagnostics[0]!.message);
  const hint = /^\S*[^A-Z0-9\s]\S* segment/.test(first)
    ? ' (are the separators those the ISA declares: ISA04/ISA16 and the character after ISA16?)'
    : '';
  return `${first.slice(0, 120)}${hint}${diagnostics.length > 1 ? ` (and ${diagnostics.length - 1} more)` : ''}`;
}

function stripPrefix(message: string): string {
  return message.replace(/^X12 Standard: /, '');
}
