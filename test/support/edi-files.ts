import { JSEDINotation, X12Generator } from 'node-x12';

/**
 * EDI test files from one description of status messages. X12 315 files are written with node-x12's
 * own generator (JSEDINotation, X12Generator). `edifact` (node-edifact) reads but does not write, so
 * IFTSTA messages are written from the structure its parser yields (segments of elements of
 * components), joined with the ISO 9735 default separators and release character.
 */

export interface EdiPortSpec {
  role: 'LOAD' | 'DISCHARGE';
  locode: string;
  /**
   * The port's IANA zone: its times are written as its local wall-clock time (docs/carriers.md "Times"), with
   * the X12 DTM-04 `code` given (none, or `LT`). Without a zone they are written in UTC with `UT`.
   */
  zone?: string;
  /** Schedule times at this port: departure at LOAD, arrival at DISCHARGE. */
  times?: { classifier: 'EST' | 'ACT'; at: string; code?: '' | 'LT' }[];
}

export interface EdiStatusSpec {
  /** ST02 / UNH 0062. */
  control: string;
  status: string;
  /** The status time, canonical UTC (whole minutes). */
  at: string;
  /** The IANA zone of the status location: the status time is written as its local time there (default: UTC). */
  zone?: string;
  container?: string;
  empty?: boolean;
  locode?: string;
  vessel?: { name: string; imo: string };
  voyage?: string;
  billOfLading?: string;
  booking?: string;
  ports?: EdiPortSpec[];
}

export interface EdiInterchangeSpec {
  sender: string;
  control: string;
  /** When the carrier issued it (GS04/05, DTM+137), canonical UTC (whole minutes). */
  issued: string;
  version?: '4010' | '5010';
  messages: EdiStatusSpec[];
}

const ymd = (iso: string) => iso.slice(0, 10).replaceAll('-', '');
const hm = (iso: string) => iso.slice(11, 16).replace(':', '');

/** An instant (canonical UTC) as the wall-clock time of a zone, YYYY-MM-DDTHH:MM:SS (what a carrier writes as local time). */
export function wallTime(iso: string, zone = 'UTC'): string {
  const parts: Record<string, string> = {};
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  for (const p of format.formatToParts(Date.parse(iso))) parts[p.type] = p.value;
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
}

/** The 315 segments of one status message (between ST and SE), as node-x12's JSEDINotation takes them. */
export function x12Segments(m: EdiStatusSpec): [string, string[]][] {
  const container = m.container ?? '';
  const segments: [string, string[]][] = [
    [
      'B4',
      [
        '',
        '',
        m.status,
        ymd(wallTime(m.at, m.zone)),
        hm(wallTime(m.at, m.zone)),
        '',
        container.slice(0, 4),
        container.slice(4, 11),
        m.empty === undefined ? '' : m.empty ? 'E' : 'L',
        '',
        m.locode ?? '',
        m.locode ? 'UN' : '',
      ],
    ],
  ];
  if (m.billOfLading) segments.push(['N9', ['BM', m.billOfLading]]);
  if (m.booking) segments.push(['N9', ['BN', m.booking]]);
  if (m.vessel || m.voyage) {
    segments.push([
      'Q2',
      [m.vessel?.imo ?? '', '', '', '', '', '', '', '', m.voyage ?? '', '', '', m.vessel ? 'L' : '', m.vessel?.name ?? ''],
    ]);
  }
  for (const port of m.ports ?? []) {
    segments.push(['R4', [port.role === 'LOAD' ? 'L' : 'D', 'UN', port.locode]]);
    for (const time of port.times ?? []) {
      const wall = wallTime(time.at, port.zone);
      segments.push(['DTM', [time.classifier === 'EST' ? '139' : '140', ymd(wall), hm(wall), port.zone ? (time.code ?? '') : 'UT']]);
    }
  }
  return segments.map(([tag, elements]) => [tag, trimTrailing(elements)]);
}

function trimTrailing(elements: string[]): string[] {
  const out = [...elements];
  while (out.length > 1 && out.at(-1) === '') out.pop();
  return out;
}

/** A whole X12 315 interchange (ISA..IEA), written by node-x12's generator. */
export function x12Interchange(spec: EdiInterchangeSpec): string {
  const version = spec.version ?? '4010';
  const isaDate = ymd(spec.issued).slice(2);
  const notation = new JSEDINotation([
    '00',
    '          ',
    '00',
    '          ',
    'ZZ',
    spec.sender.padEnd(15),
    'ZZ',
    'TRACKING'.padEnd(15),
    isaDate,
    hm(spec.issued),
    version === '4010' ? 'U' : '^',
    version === '4010' ? '00401' : '00501',
    spec.control.padStart(9, '0'),
    '0',
    'P',
    '>',
  ]);
  const group = notation.addFunctionalGroup([
    'QO',
    spec.sender,
    'TRACKING',
    ymd(spec.issued),
    hm(spec.issued),
    '1',
    'X',
    version === '4010' ? '004010' : '005010',
  ]);
  for (const m of spec.messages) {
    const tx = group.addTransaction(['315', m.control]);
    for (const [tag, elements] of x12Segments(m)) tx.addSegment(tag, elements);
  }
  return new X12Generator(notation, {
    segmentTerminator: '~',
    elementDelimiter: '*',
    subElementDelimiter: '>',
    endOfLine: '\n',
    format: true,
  }).toString();
}

type EdifactSegment = { name: string; elements: string[][] };

const edt = (iso: string) => `${ymd(iso)}${hm(iso)}`;

/** The IFTSTA segments of one status message (UNH..UNT), in the structure node-edifact's parser yields. */
export function iftstaSegments(m: EdiStatusSpec, issued: string): EdifactSegment[] {
  const s = (name: string, ...elements: string[][]): EdifactSegment => ({ name, elements });
  const body: EdifactSegment[] = [s('BGM', ['23'], [m.control], ['9']), s('DTM', ['137', edt(issued), '203'])];
  if (m.billOfLading) body.push(s('RFF', ['BM', m.billOfLading]));
  if (m.booking) body.push(s('RFF', ['BN', m.booking]));
  if (m.container)
    body.push(s('EQD', ['CN'], [m.container], ['22G1', '6346', '5'], [''], [''], m.empty === undefined ? [] : [m.empty ? '4' : '5']));
  body.push(s('STS', ['1'], [m.status]));
  body.push(s('DTM', ['334', edt(wallTime(m.at, m.zone)), '203']));
  if (m.locode) body.push(s('LOC', ['175'], [m.locode, '139', '6']));
  if (m.vessel || m.voyage) {
    body.push(
      s('TDT', ['20'], [m.voyage ?? ''], ['1'], [''], [''], [''], [''], m.vessel ? [m.vessel.imo, '146', '11', m.vessel.name] : []),
    );
  }
  for (const port of m.ports ?? []) {
    body.push(s('LOC', [port.role === 'LOAD' ? '9' : '11'], [port.locode, '139', '6']));
    for (const time of port.times ?? []) {
      const q = port.role === 'LOAD' ? (time.classifier === 'EST' ? '133' : '186') : time.classifier === 'EST' ? '132' : '178';
      body.push(s('DTM', [q, edt(wallTime(time.at, port.zone)), '203']));
    }
  }
  const segments = [s('UNH', [m.control], ['IFTSTA', 'D', '99B', 'UN']), ...body];
  return [...segments.map((seg) => ({ ...seg, elements: trimEmpty(seg.elements) })), s('UNT', [String(segments.length + 1)], [m.control])];
}

function trimEmpty(elements: string[][]): string[][] {
  const out = elements.map((e) => [...e]);
  while (out.length > 1 && (out.at(-1)!.length === 0 || out.at(-1)!.every((c) => c === ''))) out.pop();
  return out;
}

/** Escapes ISO 9735 default separators with the release character. */
function escape(value: string): string {
  return value.replace(/([?+:'])/g, '?$1');
}

export function edifactText(segments: EdifactSegment[], newline = false): string {
  return segments.map((seg) => `${seg.name}+${seg.elements.map((e) => e.map(escape).join(':')).join('+')}'`).join(newline ? '\n' : '');
}

/** A whole IFTSTA interchange (UNA, UNB..UNZ). */
export function iftstaInterchange(spec: EdiInterchangeSpec): string {
  const unb: EdifactSegment = {
    name: 'UNB',
    elements: [['UNOC', '3'], [spec.sender, 'ZZZ'], ['TRACKING', 'ZZZ'], [ymd(spec.issued).slice(2), hm(spec.issued)], [spec.control]],
  };
  const messages = spec.messages.flatMap((m) => iftstaSegments(m, spec.issued));
  const unz: EdifactSegment = { name: 'UNZ', elements: [[String(spec.messages.length)], [spec.control]] };
  return `UNA:+.? '${edifactText([unb, ...messages, unz], true)}\n`;
}
