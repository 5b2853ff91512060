import { createReadStream } from 'node:fs';
import { countIngestedBundle, countUnwrittenBundle } from '../observability/metrics.js';
import type { Database } from '../db/connect.js';
import { openWakeChannel } from '../app/wake-channel.js';
import { ingestBundle, type IngestSummary } from '../ingest/ingest-bundle.js';
import { BundleJsonError, readBundle } from '../ingest/read-bundle.js';
import type { CommandIo } from './client-commands.js';
import type { ExceptionThresholds } from '../domain/thresholds.js';

/**
 * `tracking ingest FILE... | -` (README, Command line): each file (or `-`, stdin)
 * holds one ingest bundle. Files are ingested in the given order, each in
 * its own transaction; the first file that fails stops the run. Files before
 * it stay ingested (ingest is idempotent, so the same command can simply be
 * re-run once the file is fixed), and nothing of the failing file is written.
 *
 * A file is streamed (readBundle): validated entry by entry as it is read,
 * only normalized entries kept, then written by ingestBundle in one
 * transaction. On a terminal, stderr shows progress; `--json` prints one
 * JSON summary object per file on stdout.
 */

export interface IngestCommandIo extends CommandIo {
  stdin: NodeJS.ReadableStream;
  now: () => Date;
  /** Exception thresholds for the refresh; default docs/architecture.md, Exception rules. */
  thresholds?: ExceptionThresholds;
  /** Where running instances hear of each commit (Redis, when configured: src/app/wake-channel.ts). */
  wakeChannel?: { redisUrl: string | undefined; keyPrefix: string };
}

/** Returns the process exit code: 0 all ingested, 1 a file failed. Arguments are checked by the caller. */
export async function runIngestCommand(
  database: Database,
  files: readonly string[],
  options: { json?: boolean },
  io: IngestCommandIo,
): Promise<number> {
  // Delivery workers and live updates of running instances hear of each commit at once, not at their next poll.
  const wake = await openWakeChannel({ redisUrl: io.wakeChannel?.redisUrl, keyPrefix: io.wakeChannel?.keyPrefix ?? '', log: () => {} });
  try {
    return await ingestFiles(database, files, options, { ...io, committed: () => wake.publish() });
  } finally {
    await wake.close();
  }
}

async function ingestFiles(
  database: Database,
  files: readonly string[],
  options: { json?: boolean },
  io: IngestCommandIo & { committed: () => void },
): Promise<number> {
  for (const [index, arg] of files.entries()) {
    const name = arg === '-' ? 'stdin' : arg;
    const failure = await ingestOne(database, arg, name, options, io);
    if (failure === null) continue;
    io.stderr.write(failure);
    const later = files.length - index - 1;
    const notes = [
      index > 0 ? `${index} earlier file(s) of this run were ingested and stay ingested` : '',
      later > 0 ? `${later} later file(s) were not processed` : '',
    ].filter(Boolean);
    if (notes.length > 0) io.stderr.write(`${notes.join('; ')}\n`);
    return 1;
  }
  return 0;
}

/** Ingests one bundle file; returns null on success, else the message for stderr. */
async function ingestOne(
  database: Database,
  arg: string,
  name: string,
  options: { json?: boolean },
  io: IngestCommandIo & { committed: () => void },
): Promise<string | null> {
  const progress = new ProgressLine(io.stderr, name);
  let parsed;
  try {
    const source = arg === '-' ? io.stdin : createReadStream(arg);
    parsed = await readBundle(source as AsyncIterable<Buffer>, {
      onProgress: (entries) => progress.show(`validated ${entries.toLocaleString('en')} entries`),
    });
  } catch (err) {
    progress.clear();
    if (err instanceof BundleJsonError) {
      countUnwrittenBundle('rejected');
      return `${name}:${err.line}:${err.column}: invalid JSON, nothing written: ${err.message}\n`;
    }
    return `${name}: cannot read: ${err instanceof Error ? err.message : String(err)}\n`;
  }
  if (!parsed.ok) {
    progress.clear();
    countUnwrittenBundle('rejected');
    const lines = parsed.issues.map((issue) => `  ${issue.path || '(bundle)'}: ${issue.message}\n`);
    return `${name}: invalid bundle, nothing written:\n${lines.join('')}`;
  }
  const { shipments, events } = parsed.bundle;
  progress.show(`writing ${shipments.length.toLocaleString('en')} shipment(s), ${events.length.toLocaleString('en')} event(s)…`);
  let summary: IngestSummary;
  try {
    summary = await ingestBundle(database, parsed.bundle, { now: io.now, thresholds: io.thresholds });
    io.committed();
  } catch (err) {
    countUnwrittenBundle('failed');
    return `${name}: ingest failed, nothing written: ${err instanceof Error ? err.message : String(err)}\n`;
  } finally {
    progress.clear();
  }
  countIngestedBundle(summary);
  io.stdout.write(options.json ? `${JSON.stringify({ file: name, ...summary })}\n` : `${name}: ${describeSummary(summary)}\n`);
  return null;
}

export function describeSummary(s: IngestSummary): string {
  return (
    `shipments ${s.shipmentsCreated} created, ${s.shipmentsUpdated} updated` +
    (s.shipmentsOutdated > 0 ? `, ${s.shipmentsOutdated} outdated (the shipment holds this statement or a newer one)` : '') +
    '; ' +
    `events ${s.eventsStored} stored, ${s.eventsAlreadyStored} already stored, ${s.eventsUnlinked} not linked to a shipment yet; ` +
    `${s.shipmentsRefreshed} shipment(s) refreshed`
  );
}

/** One line rewritten in place on a terminal; nothing at all when stderr is a pipe or a file. */
class ProgressLine {
  #shown = false;

  constructor(
    private readonly stream: CommandIo['stderr'],
    private readonly name: string,
  ) {}

  show(text: string): void {
    if (!this.stream.isTTY) return;
    this.stream.write(`\r\x1b[K${this.name}: ${text}`);
    this.#shown = true;
  }

  clear(): void {
    if (!this.#shown) return;
    this.stream.write('\r\x1b[K');
    this.#shown = false;
  }
}
