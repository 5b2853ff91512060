import { readFile } from 'node:fs/promises';
import { CarrierStore } from '../carriers/carrier-store.js';
import { describeRejection, EdiUnreadableError, ingestEdi, type EdiIngestSummary } from '../carriers/edi-ingest.js';
import type { Config } from '../config/config.js';
import type { Database } from '../db/connect.js';
import type { EdiFormat } from '../domain/edi-status-map.js';
import { countIngestedBundle, countUnwrittenBundle } from '../observability/metrics.js';
import { openWakeChannel } from '../app/wake-channel.js';
import type { IngestCommandIo } from './ingest-command.js';

/**
 * `tracking ingest --format x12-315|iftsta --carrier CODE FILE...` (docs/carriers.md "EDI"): each file
 * holds EDI interchanges of the carrier, which must be configured to send that format
 * (`tracking carrier formats`). The good transactions of a file are stored in one transaction; each
 * bad one is kept as a rejected event (`tracking carrier rejected list`) and named on stderr with its
 * interchange, transaction and segment. A file is one summary line (or one JSON object with --json).
 */

/** Exit 0: every transaction of every file stored (or already received); 1: a file unreadable or a transaction rejected. */
export async function runEdiIngestCommand(
  database: Database,
  config: Config,
  files: readonly string[],
  options: { format: EdiFormat; carrier: string; json?: boolean },
  io: IngestCommandIo,
): Promise<number> {
  const store = await CarrierStore.open(database.db, config, io.now);
  const carrier = await store.getCarrier(options.carrier);
  if (!carrier) {
    io.stderr.write(`No carrier ${options.carrier.slice(0, 20)} is configured (tracking carrier add, then tracking carrier formats).\n`);
    return 2;
  }
  if (!carrier.ediFormats.includes(options.format)) {
    io.stderr.write(
      `Carrier ${carrier.carrierCode} is not configured to send ${options.format} ` +
        `(it sends: ${['dcsa', ...carrier.ediFormats].join(', ')}). Set it with: tracking carrier formats ${carrier.carrierCode} ${options.format}\n`,
    );
    return 2;
  }
  const wake = await openWakeChannel({ redisUrl: io.wakeChannel?.redisUrl, keyPrefix: io.wakeChannel?.keyPrefix ?? '', log: () => {} });
  let exit = 0;
  try {
    for (const arg of files) {
      const name = arg === '-' ? 'stdin' : arg;
      let text: string;
      try {
        text = arg === '-' ? await readAll(io.stdin) : await readFile(arg, 'utf8');
      } catch (err) {
        io.stderr.write(`${name}: cannot read: ${err instanceof Error ? err.message : String(err)}\n`);
        exit = 1;
        continue;
      }
      let summary: EdiIngestSummary;
      try {
        summary = await ingestEdi(
          database,
          { carrierCode: carrier.carrierCode, format: options.format, text, times: carrier.ediTimes },
          { now: io.now, thresholds: io.thresholds, rejectedEventsMax: config.carriers.rejectedEventsMax },
        );
      } catch (err) {
        if (!(err instanceof EdiUnreadableError)) throw err;
        countUnwrittenBundle('rejected');
        io.stderr.write(`${name}: ${options.format} refused whole, nothing written (kept as a rejected event): ${err.message}\n`);
        exit = 1;
        continue;
      }
      if (summary.eventsStored > 0) wake.publish();
      countIngestedBundle({ ...summary, shipmentsCreated: 0, shipmentsUpdated: 0, shipmentsOutdated: 0 });
      for (const r of summary.rejected) io.stderr.write(`${name}: rejected (kept): ${describeRejection(r)}\n`);
      if (summary.transactionsRejected > 0) exit = 1;
      const { exceptionTransitions: _transitions, ...shown } = summary;
      io.stdout.write(options.json ? `${JSON.stringify({ file: name, ...shown })}\n` : `${name}: ${describeEdiSummary(summary)}\n`);
    }
  } finally {
    await wake.close();
  }
  return exit;
}

export function describeEdiSummary(s: EdiIngestSummary): string {
  const again = s.interchanges.filter((i) => i.alreadyReceived);
  const fresh = s.interchanges.length - again.length;
  return (
    `${s.format}: ${fresh} interchange(s) taken` +
    (again.length > 0 ? `, ${again.length} already received (${again.map((i) => i.controlNumber).join(', ')}: nothing done)` : '') +
    `; transactions ${s.transactions - s.transactionsRejected} stored, ${s.transactionsRejected} rejected; ` +
    `events ${s.eventsStored} stored, ${s.eventsAlreadyStored} already stored, ${s.eventsUnlinked} not linked to a shipment yet; ` +
    `${s.shipmentsRefreshed} shipment(s) refreshed`
  );
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer | string>) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}
