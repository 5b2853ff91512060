import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Config } from '../config/config.js';
import type { Database } from '../db/connect.js';
import { ETA_MODEL_FORMAT, modelSummary, trainEtaModel, updateEtaModel, type EtaModel } from '../domain/eta/predictor.js';
import type { Logger } from '../observability/logger.js';
import { orderCommittedChanges } from '../store/changes/change-order.js';
import {
  formatHistoryCursor,
  HISTORY_START,
  loadArrivedVoyages,
  parseHistoryCursor,
  type HistoryCursor,
} from '../store/eta/eta-history.js';
import {
  advanceEtaCursor,
  claimEtaTraining,
  commitEtaModel,
  LostTrainingLease,
  readLatestEtaModel,
  releaseEtaTraining,
  renewEtaTraining,
} from '../store/eta/eta-model.js';

/**
 * Training the predicted arrival's model (docs/predicted-arrival.md, How it is trained): in the background of
 * `serve` (startEtaTrainer) and on demand (`tracking eta train`), the same run.
 *
 * A run takes the training lease (one instance at a time across a cluster: store/eta/eta-model.ts), resumes from
 * the stored model and cursor (the event store's seq and the change log's commit order: store/eta/eta-history.ts,
 * HistoryCursor, so an arrival whose ingest committed late is learned too), and folds the voyages that arrived since in bounded batches (the history loader
 * scans `batchEvents` stored events at a time and loads the voyages that arrived among them; the model is bounded in
 * size by its own rules, src/domain/eta/), yielding to
 * the event loop between batches (`pauseMs`). Each batch renews the lease, and progress is committed (a new model
 * version with the cursor past what it holds, in one transaction conditioned on the lease) every `commitEveryMs`
 * and at the end: a run cut short keeps what it committed, and the next run goes on from there.
 */

/** Change-log rows a training batch numbers at most (in batches of 1,000: a few seconds at most). */
const NUMBERED_PER_BATCH = 20_000;

export interface EtaTrainingOptions {
  /** Who trains (host:pid:random by default). */
  owner?: string;
  /** The clock: the lease's times and the model's trainedAt. */
  now: () => Date;
  /** Stored events scanned per batch (the history loader keeps the voyages that arrived among them). */
  batchEvents: number;
  /** Pause between batches, ms (0: a bare yield). */
  pauseMs: number;
  /** The lease's length, ms; renewed after every batch. Default 120 s. */
  leaseMs?: number;
  /** How often progress is committed as a new model version, ms. Default 30 s. */
  commitEveryMs?: number;
  /** Change-log rows numbered at most before each batch (default 20,000; tests set fewer). */
  numberedPerBatch?: number;
  /** Start over: the model learned again from the whole history. */
  fromScratch?: boolean;
  /** Asked between batches: true ends the run after committing what it learned. */
  stopping?: () => boolean;
}

export type EtaTrainingResult =
  | { kind: 'busy' }
  | {
      kind: 'trained';
      /** Voyages folded in by this run. */
      learned: number;
      /** The model as it stands: voyages and lanes in all. */
      voyages: number;
      lanes: number;
      /** The newest stored version (unchanged when nothing new arrived); null when none exists. */
      version: number | null;
      elapsedMs: number;
    };

export async function trainEta(database: Database, options: EtaTrainingOptions): Promise<EtaTrainingResult> {
  const owner = options.owner ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const leaseMs = options.leaseMs ?? 120_000;
  const commitEveryMs = options.commitEveryMs ?? 30_000;
  const started = Date.now();
  const claim = await claimEtaTraining(database, owner, options.now(), leaseMs);
  if (!claim) return { kind: 'busy' };
  let error: string | null = null;
  try {
    const trainedAt = options.now().toISOString();
    const stored = options.fromScratch ? undefined : await readLatestEtaModel(database.db);
    // A model of another format (an older or newer release) is not folded into: this run learns it again, from the
    // start of the history; until its first commit the stored model goes on serving.
    const resume = stored !== undefined && stored.format === ETA_MODEL_FORMAT;
    let model: EtaModel = resume ? stored.model : trainEtaModel([], trainedAt);
    let cursor: HistoryCursor = resume ? parseHistoryCursor(claim.cursor) : HISTORY_START;
    let version = stored?.version ?? null;
    let learned = 0;
    const learnedIds = new Set<string>();
    // The voyages this run folded, by hash: counted once in the model's total however often the run finds them.
    const countedVoyages = new Set<number>();
    let unsaved = !resume;
    let committedCursor = cursor;
    let committedAt = Date.now();
    const commit = async () => {
      if (unsaved) {
        const summary = modelSummary(model);
        version = await commitEtaModel(database.db, owner, {
          now: options.now(),
          leaseMs,
          cursor: formatHistoryCursor(cursor),
          model,
          summary: { trainedAt, voyages: summary.voyages, lanes: summary.lanes },
        });
      } else if (formatHistoryCursor(cursor) !== formatHistoryCursor(committedCursor)) {
        // A stretch of the history without arrivals: the model is as stored, only the position moves.
        await advanceEtaCursor(database.db, owner, { now: options.now(), leaseMs, cursor: formatHistoryCursor(cursor) });
      }
      unsaved = false;
      committedCursor = cursor;
      committedAt = Date.now();
    };
    for (;;) {
      // The change log's rows committed since are numbered first: the history's change position reads only
      // numbered rows, and a row numbered now comes after every number read before (store/changes/change-order.ts).
      // At most NUMBERED_PER_BATCH per batch, so that a long backlog is numbered over many batches, each followed by
      // the lease's renewal, instead of by one call that outlasts the lease (at a million shipments, 4.8 million
      // rows: bench/README.md, The ETA training's cost); the rest is learned as it is numbered, by this run or the next.
      const numberedMax = options.numberedPerBatch ?? NUMBERED_PER_BATCH;
      const numbered = await orderCommittedChanges(database.db, { maxRows: numberedMax, batchRows: Math.min(1_000, numberedMax) });
      const page = await loadArrivedVoyages(database.db, cursor, options.batchEvents);
      if (page.voyages.length > 0) {
        model = updateEtaModel(model, page.voyages, trainedAt, countedVoyages);
        // A voyage can come twice in a run (by the event store's position and the change log's): counted once.
        for (const voyage of page.voyages) learnedIds.add(voyage.shipmentId);
        learned = learnedIds.size;
        unsaved = true;
      }
      cursor = page.cursor;
      // The history's end is the end only once the change log is numbered to its end too.
      if ((!page.more && numbered < numberedMax) || options.stopping?.()) break;
      if (Date.now() - committedAt >= commitEveryMs) await commit();
      else if (!(await renewEtaTraining(database.db, owner, options.now(), leaseMs))) throw new LostTrainingLease();
      await new Promise((resolve) => setTimeout(resolve, options.pauseMs));
    }
    // A first run over an empty history writes a model too, so that every instance serves the same (empty) one.
    await commit();
    const summary = modelSummary(model);
    return { kind: 'trained', learned, voyages: summary.voyages, lanes: summary.lanes, version, elapsedMs: Date.now() - started };
  } catch (err) {
    error = err instanceof Error ? err.message : String(err);
    throw err;
  } finally {
    await releaseEtaTraining(database.db, owner, options.now(), error).catch(() => undefined);
  }
}

/**
 * Training in the background of `serve`: a run every TT_ETA_TRAIN_INTERVAL_SECONDS (TT_ETA_TRAINING=false: none).
 * The timer between runs is unref()ed: a process with nothing else to do is not kept alive by it. `stop()` ends a
 * run after its current batch (what it learned is committed) and resolves once it has.
 */
export function startEtaTrainer(
  config: Config,
  database: Database,
  logger: Logger,
  options: { now?: () => Date; onTrained?: () => void } = {},
): { stop(): Promise<void> } {
  if (!config.eta.training) return { stop: () => Promise.resolve() };
  let stopping = false;
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  const run = async () => {
    try {
      const result = await trainEta(database, {
        now: options.now ?? (() => new Date()),
        batchEvents: config.eta.trainBatchEvents,
        pauseMs: config.eta.trainPauseMs,
        stopping: () => stopping,
      });
      if (result.kind === 'trained' && result.learned > 0) {
        // A new model moves predictions: the predicted arrival's push looks again (src/app/predicted-arrival-pusher.ts).
        options.onTrained?.();
        logger.log('info', 'ETA model trained', {
          learned: result.learned,
          voyages: result.voyages,
          lanes: result.lanes,
          version: result.version,
          elapsedMs: result.elapsedMs,
        });
      }
    } catch (err) {
      logger.log('error', 'ETA training failed', { error: err instanceof Error ? err.message : String(err) });
    }
  };
  const schedule = (ms: number) => {
    if (stopping) return;
    timer = setTimeout(() => {
      running = run().finally(() => {
        running = undefined;
        schedule(config.eta.trainIntervalSeconds * 1000);
      });
    }, ms);
    timer.unref();
  };
  // The first run a little after start, so that it does not compete with the start-up's own work.
  schedule(Math.min(5_000, config.eta.trainIntervalSeconds * 1000));
  return {
    stop: async () => {
      stopping = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
