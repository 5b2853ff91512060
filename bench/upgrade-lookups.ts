import { performance } from 'node:perf_hooks';
import { createPool, type Pool, type RowDataPacket } from 'mysql2/promise';
import { BENCH_ACCOUNT, shipmentKey } from './generate.js';

/**
 * The lookups of the upgrade-steps bench (bench/upgrade-steps.ts): what a 0.4.0 instance runs for
 * `GET /v2/shipments?billOfLadingNumber=…`, its two statements as 0.4.0 compiles them (commit 269978e,
 * src/store/shipment-lookup.ts then src/store/stored-snapshots.ts), straight on mysql2: the shipment row among
 * those the account may see, then its stored snapshot by primary key. No service in between: the reader is the
 * old release's SQL, so what moves its latency is the database (metadata locks, the DDL's I/O and CPU), and a
 * service of this release cannot be the reader while the steps are applied one at a time (it applies them all at
 * its start). From the finish on (`readsBothForms`) the snapshot statement also reads 0.5.0's compact columns.
 *
 * Open loop at a fixed rate (at most `inFlight` at once: a lookup due while that many wait is counted as skipped),
 * random shipments of 0..shipments-1; each lookup's time is both statements'. Latencies go to the current window.
 * Another bench can give its own lookup (`lookup`: resolves true when found, false when not), run the same way.
 */

const SHIPMENT_BY_BL =
  'select `s`.`id`, `s`.`carrier_code`, `s`.`carrier_booking_reference`, `s`.`master_json`, `s`.`etd`, `s`.`eta`, `s`.`version` ' +
  'from `shipment` as `s` where exists (select `sa`.`shipment_id` from `shipment_account` as `sa` ' +
  'where `sa`.`shipment_id` = `s`.`id` and `sa`.`account_id` in (?)) and `s`.`bill_of_lading_number` = ? limit ?';
const SNAPSHOT_040 = 'select `version`, `tracking_json`, `exceptions_json` from `shipment_snapshot` where `shipment_id` = ?';
const SNAPSHOT_BOTH =
  'select `version`, `stored_form`, `tracking_json`, `exceptions_json`, `tracking_z`, `exceptions_z`, `rest_tracking_z` ' +
  'from `shipment_snapshot` where `shipment_id` = ?';

export interface LookupWindow {
  label: string;
  latenciesMs: number[];
  errors: number;
  notFound: number;
  skipped: number;
  firstError?: string;
}

export interface WindowSummary {
  label: string;
  lookups: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  notFound: number;
  skipped: number;
  firstError?: string;
}

export class LookupLoop {
  readonly #pool: Pool;
  readonly #shipments: number;
  readonly #rate: number;
  readonly #inFlightLimit: number;
  #inFlight = 0;
  #window: LookupWindow = newWindow('(none)');
  #timer: NodeJS.Timeout | null = null;
  #snapshotStatement = SNAPSHOT_040;
  readonly #custom: (() => Promise<boolean>) | undefined;

  constructor(url: string, options: { shipments: number; rate: number; connections: number; lookup?: () => Promise<boolean> }) {
    this.#pool = createPool({ uri: url, connectionLimit: options.connections, dateStrings: true, supportBigNumbers: true });
    this.#custom = options.lookup;
    this.#shipments = options.shipments;
    this.#rate = options.rate;
    this.#inFlightLimit = options.connections * 4;
  }

  start(): void {
    const tickMs = 10;
    let due = 0;
    let last = performance.now();
    this.#timer = setInterval(() => {
      const now = performance.now();
      due += ((now - last) / 1000) * this.#rate;
      last = now;
      while (due >= 1) {
        due -= 1;
        if (this.#inFlight >= this.#inFlightLimit) {
          this.#window.skipped++;
          continue;
        }
        void this.#lookup();
      }
    }, tickMs);
  }

  /** From now on the snapshot statement reads both forms' columns (after the expand steps, before the finish). */
  readBothForms(): void {
    this.#snapshotStatement = SNAPSHOT_BOTH;
  }

  /** Starts a new window; returns the one that ended. */
  window(label: string): LookupWindow {
    const ended = this.#window;
    this.#window = newWindow(label);
    return ended;
  }

  async stop(): Promise<LookupWindow> {
    if (this.#timer) clearInterval(this.#timer);
    while (this.#inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    await this.#pool.end();
    return this.#window;
  }

  async #lookup(): Promise<void> {
    this.#inFlight++;
    const window = this.#window;
    const key = shipmentKey(Math.floor(Math.random() * this.#shipments));
    const t0 = performance.now();
    try {
      if (this.#custom) {
        if (!(await this.#custom())) window.notFound++;
        window.latenciesMs.push(performance.now() - t0);
        return;
      }
      const [rows] = await this.#pool.query<RowDataPacket[]>(SHIPMENT_BY_BL, [[BENCH_ACCOUNT], key.billOfLadingNumber, 1]);
      const row = rows[0];
      if (!row) {
        window.notFound++;
      } else {
        const [snapshots] = await this.#pool.query<RowDataPacket[]>(this.#snapshotStatement, [row.id]);
        if (snapshots.length === 0) window.notFound++;
      }
      window.latenciesMs.push(performance.now() - t0);
    } catch (err) {
      window.errors++;
      window.firstError ??= err instanceof Error ? err.message : String(err);
    } finally {
      this.#inFlight--;
    }
  }
}

function newWindow(label: string): LookupWindow {
  return { label, latenciesMs: [], errors: 0, notFound: 0, skipped: 0 };
}

export function summarize(window: LookupWindow): WindowSummary {
  const sorted = [...window.latenciesMs].sort((a, b) => a - b);
  const at = (q: number) => (sorted.length === 0 ? NaN : (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number));
  return {
    label: window.label,
    lookups: sorted.length,
    p50: at(0.5),
    p99: at(0.99),
    max: sorted.length === 0 ? NaN : (sorted[sorted.length - 1] as number),
    errors: window.errors,
    notFound: window.notFound,
    skipped: window.skipped,
    ...(window.firstError ? { firstError: window.firstError } : {}),
  };
}
