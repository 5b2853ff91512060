import { JSEDINotation, X12Generator } from 'node-x12';
import { containerCheckDigit } from '../src/domain/container-number.js';
import { ingestEdi, readInterchanges } from '../src/carriers/edi-ingest.js';
import { ediStatusEvents, type DcsaEventObject } from '../src/domain/edi-status-map.js';
import { ingestBundle } from '../src/ingest/ingest-bundle.js';
import { parseBundle } from '../src/ingest/parse-bundle.js';
import { createBenchDatabase } from './databases.js';

/**
 * EDI ingest throughput (docs/carriers.md "EDI"): one X12 315 interchange of 10,000 status messages, and the
 * same 10,000 events as one DCSA ingest bundle, each loaded into a fresh database that already holds their
 * 1,000 shipments (2 containers each: in-gate, loaded, discharged, out-gate per container, and the vessel's
 * departure and arrival). Median of three of each, alternating, in one run:
 *
 *   npm run bench:build && node dist-bench/bench/edi-ingest.js [--sqlite | --mysql] [--rounds 3]
 *
 * The 315 is timed from its text (node-x12 parse, map, validation, ingest); the DCSA bundle from its parsed
 * JSON (validation, ingest), as `tracking ingest` of each file would load them.
 */

const CARRIER = 'MAEU';
const SHIPMENTS = 1000;
const VESSEL = { name: 'MAERSK ALPHA', imo: '9321483' };

function container(i: number, n: number): string {
  const first10 = `MSKU${String(i * 2 + n).padStart(6, '0')}`;
  return `${first10}${containerCheckDigit(first10)}`;
}

const ymd = (ms: number) => new Date(ms).toISOString().slice(0, 10).replaceAll('-', '');
const hm = (ms: number) => new Date(ms).toISOString().slice(11, 16).replace(':', '');

/** The 315 of every status of every shipment, written with node-x12's generator. */
export function x12File(control: string): string {
  const notation = new JSEDINotation([
    '00',
    '          ',
    '00',
    '          ',
    'ZZ',
    'MAEUBENCH'.padEnd(15),
    'ZZ',
    'TRACKING'.padEnd(15),
    '260301',
    '0000',
    'U',
    '00401',
    control.padStart(9, '0'),
    '0',
    'P',
    '>',
  ]);
  const group = notation.addFunctionalGroup(['QO', 'MAEUBENCH', 'TRACKING', '20260301', '0000', '1', 'X', '004010']);
  let st = 0;
  const base = Date.parse('2026-03-02T00:00:00.000Z');
  for (let i = 0; i < SHIPMENTS; i++) {
    const refs: [string, string[]][] = [
      ['N9', ['BM', `MAEUBENCHBL${i}`]],
      ['N9', ['BN', `BENCHBKG${i}`]],
      ['Q2', [VESSEL.imo, '', '', '', '', '', '', '', `${100 + (i % 50)}W`, '', '', 'L', VESSEL.name]],
    ];
    const status = (code: string, hours: number, locode: string, equipment?: string) => {
      const tx = group.addTransaction(['315', String(++st).padStart(9, '0')]);
      const at = base + (i % 200) * 3_600_000 + hours * 3_600_000;
      tx.addSegment('B4', [
        '',
        '',
        code,
        ymd(at),
        hm(at),
        '',
        equipment?.slice(0, 4) ?? '',
        equipment?.slice(4) ?? '',
        '',
        '',
        locode,
        'UN',
      ]);
      for (const [tag, elements] of refs) tx.addSegment(tag, elements);
    };
    for (let n = 0; n < 2; n++) {
      status('I', n, 'CNSHA', container(i, n));
      status('AE', 10 + n, 'CNSHA', container(i, n));
      status('UV', 400 + n, 'NLRTM', container(i, n));
      status('OA', 420 + n, 'NLRTM', container(i, n));
    }
    status('VD', 12, 'CNSHA');
    status('VA', 390, 'NLRTM');
  }
  return new X12Generator(notation, {
    segmentTerminator: '~',
    elementDelimiter: '*',
    subElementDelimiter: '>',
    endOfLine: '\n',
    format: true,
  }).toString();
}

function shipmentsBundle(): unknown {
  return {
    carrierCode: CARRIER,
    shipments: Array.from({ length: SHIPMENTS }, (_, i) => ({
      carrierBookingReference: `BENCHBKG${i}`,
      billOfLadingNumber: `MAEUBENCHBL${i}`,
      carrierCode: CARRIER,
      portOfLoading: { unLocationCode: 'CNSHA' },
      portOfDischarge: { unLocationCode: 'NLRTM' },
      accounts: ['bench'],
      containers: [{ containerNumber: container(i, 0) }, { containerNumber: container(i, 1) }],
    })),
  };
}

async function freshDatabase(dialect: 'mysql' | 'sqlite') {
  const bench = await createBenchDatabase(dialect, 'tt_bench_edi');
  const parsed = parseBundle(shipmentsBundle());
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues.slice(0, 3)));
  await ingestBundle(bench.database, parsed.bundle, { now: () => new Date() });
  return bench;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const dialect = args.includes('--sqlite') ? 'sqlite' : 'mysql';
  const rounds = Number(args[args.indexOf('--rounds') + 1] ?? 3) || 3;
  const text = x12File('1');
  // The same events as DCSA JSON: what the 315 maps to (outside the timing).
  const events: DcsaEventObject[] = readInterchanges('x12-315', text).flatMap((interchange) =>
    interchange.transactions.flatMap((tx) => (tx.result.ok ? ediStatusEvents(tx.result.status, CARRIER, 'local') : [])),
  );
  const json = JSON.stringify({ carrierCode: CARRIER, events });
  console.log(
    `${dialect}: 315 of ${(text.length / 1e6).toFixed(1)} MB, ${events.length} events; DCSA bundle of ${(json.length / 1e6).toFixed(1)} MB`,
  );
  const rates = { x12: [] as number[], dcsa: [] as number[] };
  for (let round = 0; round < rounds; round++) {
    for (const format of ['x12', 'dcsa'] as const) {
      const bench = await freshDatabase(dialect);
      try {
        const t0 = performance.now();
        let stored: number;
        if (format === 'x12') {
          const summary = await ingestEdi(
            bench.database,
            { carrierCode: CARRIER, format: 'x12-315', text },
            { now: () => new Date(), rejectedEventsMax: 1000 },
          );
          if (summary.transactionsRejected > 0) throw new Error(`rejected: ${JSON.stringify(summary.rejected.slice(0, 3))}`);
          stored = summary.eventsStored;
        } else {
          const parsed = parseBundle(JSON.parse(json));
          if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues.slice(0, 3)));
          stored = (await ingestBundle(bench.database, parsed.bundle, { now: () => new Date() })).eventsStored;
        }
        const seconds = (performance.now() - t0) / 1000;
        if (stored !== events.length) throw new Error(`${format}: stored ${stored} of ${events.length}`);
        rates[format].push(stored / seconds);
        console.log(
          `round ${round + 1} ${format === 'x12' ? 'x12-315' : 'dcsa   '}: ${stored} events in ${seconds.toFixed(2)} s = ${Math.round(stored / seconds)} events/s`,
        );
      } finally {
        await bench.destroy();
      }
    }
  }
  const fmt = (xs: number[]) =>
    `${Math.round(median(xs)).toLocaleString('en')} events/s (${xs.map((x) => Math.round(x).toLocaleString('en')).join(', ')})`;
  console.log(`${dialect} median of ${rounds}: x12-315 ${fmt(rates.x12)}; dcsa ${fmt(rates.dcsa)}`);
}

if (process.argv[1]?.endsWith('edi-ingest.js'))
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
