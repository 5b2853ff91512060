import { readFile } from 'node:fs/promises';
import type { ExceptionThresholds } from '../config/config.js';
import type { Database } from '../db/connect.js';
import { ingestBundle, type IngestSummary } from '../ingest/ingest-bundle.js';
import { parseBundle } from '../ingest/parse-bundle.js';

/**
 * `tracking ingest FILE... | -` (DESIGN section 3): each file (or `-`, stdin)
 * holds one ingest bundle. Files are ingested in the given order, each in
 * its own transaction; the first file that fails stops the run. Files before
 * it stay ingested (ingest is idempotent, so the same command can simply be
 * re-run once the file is fixed), and nothing of the failing file is written.
 */

export interface IngestCommandIo {
  stdin: NodeJS.ReadableStream;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  now: () => Date;
  /** Exception thresholds for the refresh; default DESIGN section 6. */
  thresholds?: ExceptionThresholds;
}

const USAGE = 'usage: tracking ingest FILE... | -   (one JSON bundle per file; - reads stdin)\n';

/** Returns the process exit code: 0 all ingested, 1 a file failed, 2 usage error. */
export async function runIngestCommand(database: Database, args: string[], io: IngestCommandIo): Promise<number> {
  const usageError = checkArgs(args);
  if (usageError) {
    io.stderr.write(`${usageError}\n${USAGE}`);
    return 2;
  }
  for (const [index, arg] of args.entries()) {
    const name = arg === '-' ? 'stdin' : arg;
    const failure = await ingestOne(database, arg, name, io);
    if (failure === null) continue;
    io.stderr.write(failure);
    const later = args.length - index - 1;
    const notes = [
      index > 0 ? `${index} earlier file(s) of this run were ingested and stay ingested` : '',
      later > 0 ? `${later} later file(s) were not processed` : '',
    ].filter(Boolean);
    if (notes.length > 0) io.stderr.write(`${notes.join('; ')}\n`);
    return 1;
  }
  return 0;
}

function checkArgs(args: readonly string[]): string | null {
  if (args.length === 0) return 'no bundle file given';
  const option = args.find((a) => a.startsWith('-') && a !== '-');
  if (option) return `unknown option "${option}"`;
  if (args.filter((a) => a === '-').length > 1) return 'stdin (-) can be read only once';
  return null;
}

/** Ingests one bundle file; returns null on success, else the message for stderr. */
async function ingestOne(database: Database, arg: string, name: string, io: IngestCommandIo): Promise<string | null> {
  let text: string;
  try {
    text = arg === '-' ? await readAll(io.stdin) : await readFile(arg, 'utf8');
  } catch (err) {
    return `${name}: cannot read: ${err instanceof Error ? err.message : String(err)}\n`;
  }
  let raw: unknown;
  try {
    // Editors on some platforms save a byte order mark that JSON.parse rejects.
    raw = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    return `${name}: invalid JSON, nothing written: ${err instanceof Error ? err.message : String(err)}\n`;
  }
  const parsed = parseBundle(raw);
  if (!parsed.ok) {
    const lines = parsed.issues.map((issue) => `  ${issue.path || '(bundle)'}: ${issue.message}\n`);
    return `${name}: invalid bundle, nothing written:\n${lines.join('')}`;
  }
  try {
    const summary = await ingestBundle(database, parsed.bundle, { now: io.now, thresholds: io.thresholds });
    io.stdout.write(`${name}: ${describeSummary(summary)}\n`);
    return null;
  } catch (err) {
    return `${name}: ingest failed, nothing written: ${err instanceof Error ? err.message : String(err)}\n`;
  }
}

export function describeSummary(s: IngestSummary): string {
  return (
    `shipments ${s.shipmentsCreated} created, ${s.shipmentsUpdated} updated; ` +
    `events ${s.eventsStored} stored, ${s.eventsAlreadyStored} already stored, ${s.eventsUnlinked} not linked to a shipment yet; ` +
    `${s.shipmentsRefreshed} shipment(s) refreshed`
  );
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(parts).toString('utf8');
}
