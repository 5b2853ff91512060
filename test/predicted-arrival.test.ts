import type { LogEvent } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parse, type FieldNode, type OperationDefinitionNode } from 'graphql';
import { predictionSplice } from '../src/executor/prediction-splice.js';
import { EQUIPMENT_EVENT_FRAGMENT, SHIPMENT_TRACKING_SELECTION } from '../src/executor/shipment-document.js';
import { schema } from '../src/graphql/schema/index.js';
import { ShipmentSnapshot } from '../src/store/shipments/shipment-snapshot.js';
import { startEtaTrainer, trainEta } from '../src/app/eta-training.js';
import { createLogger } from '../src/observability/logger.js';
import { ingestBundle } from '../src/ingest/ingest-bundle.js';
import { parseBundle } from '../src/ingest/parse-bundle.js';
import {
  claimEtaTraining,
  commitEtaModel,
  LostTrainingLease,
  readEtaTraining,
  readLatestEtaModel,
  releaseEtaTraining,
} from '../src/store/eta/eta-model.js';
import { createTestApp, testConfig, type TestApp } from './support/app-fixture.js';
import { runCaptured } from './support/cli-run.js';
import { createTestDatabase, dialects } from './support/databases.js';
import { bookingOf, createVoyageHistoryApp, voyageBundles, voyageHistory } from './support/voyage-history.js';

/**
 * The predicted arrival end to end (docs/predicted-arrival.md), on both stores: a history ingested through the
 * real ingest path, trained by `tracking eta train`, then read through GraphQL and REST. The default REST body and
 * its ETag do not move with the model; `include=predictedArrival` adds it; training is one instance at a time and
 * gives the same model on SQLite and MariaDB.
 */

const DAY = 86_400_000;
/** Whole minutes: predictions are given to the second. */
const NOW = new Date(Math.floor(Date.now() / 60_000) * 60_000);
/** Even, so that the voyage under way (number ARRIVED) is on the first lane, where the carrier is two days early. */
const ARRIVED = 24;
const UNDER_WAY = bookingOf(ARRIVED);
/** The training's clock, fixed so that both stores' models can be compared. */
const TRAINED_AT = new Date('2026-01-15T00:00:00.000Z');

const LOOKUP = `query($b: String) { shipment(carrierCode: "MAEU", carrierBookingReference: $b) { shipmentTracking {
  eta predictedArrival { estimatedDateTime earliestDateTime latestDateTime coverage basis sampleSize trainedAt } } } }`;

interface Prediction {
  estimatedDateTime: string;
  earliestDateTime: string;
  latestDateTime: string;
  coverage: number;
  basis: string;
  sampleSize: number;
  trainedAt: string | null;
}

/** Each store's trained model, compared once both ran. */
const models = new Map<string, string>();

describe.each(dialects)('predicted arrival on $name', ({ name, enabled }) => {
  let f: TestApp;
  let token: string;
  const statements: string[] = [];
  const REST = `/v2/shipments?carrierCode=MAEU&carrierBookingReference=${UNDER_WAY}`;

  beforeAll(async () => {
    if (!enabled) return;
    // Background training off: the tests train when they mean to.
    f = await createVoyageHistoryApp(name, {
      arrived: ARRIVED,
      now: NOW,
      log: (event: LogEvent) => void statements.push(event.query.sql),
    });
    ({ token } = await f.tokenFor('acct-eta'));
  }, 120_000);
  afterAll(async () => {
    await f?.destroy();
    await f?.t.destroy();
  });

  const predictionOf = async (): Promise<{ eta: string; predictedArrival: Prediction | null }> => {
    const response = await f.graphql(LOOKUP, { b: UNDER_WAY }, token);
    const body = (await response.json()) as {
      data: { shipment: { shipmentTracking: { eta: string; predictedArrival: Prediction | null } } };
    };
    expect(body).not.toHaveProperty('errors');
    return body.data.shipment.shipmentTracking;
  };

  let before: { etag: string | null; tracking: string };

  it.skipIf(!enabled)('without a model, the prediction is the carrier ETA itself (CARRIER_ETA_ONLY), and REST is as ever', async () => {
    const { eta, predictedArrival } = await predictionOf();
    expect(predictedArrival).toMatchObject({ basis: 'CARRIER_ETA_ONLY', sampleSize: 0, trainedAt: null, coverage: 0.8 });
    expect(predictedArrival?.estimatedDateTime).toBe(eta);
    const response = await f.get(REST, token);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { shipmentTracking: Record<string, unknown> };
    expect(body.shipmentTracking).not.toHaveProperty('predictedArrival');
    before = { etag: response.headers.get('etag'), tracking: JSON.stringify(body.shipmentTracking) };
  });

  it.skipIf(!enabled)('`tracking eta train` learns from the arrived voyages and prints a summary line', async () => {
    const run = await runCaptured(['eta', 'train'], {
      env: { TT_BASE_URL: 'http://tracking.test' },
      database: f.t.database,
      now: () => TRAINED_AT,
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(
        `^learned from ${ARRIVED} voyage\\(s\\) in \\d+\\.\\d s; the model holds ${ARRIVED} voyage\\(s\\) on 2 lane\\(s\\) \\(version 1\\)\\n$`,
      ),
    );
    const stored = await readLatestEtaModel(f.t.database.db);
    expect(stored).toMatchObject({ version: 1, voyages: ARRIVED, lanes: 2, trainedAt: TRAINED_AT.toISOString() });
    models.set(name, JSON.stringify(stored?.model));

    // Nothing new arrived: a second run learns nothing and writes no version.
    const again = await trainEta(f.t.database, { now: () => TRAINED_AT, batchEvents: 50, pauseMs: 0 });
    expect(again).toMatchObject({ kind: 'trained', learned: 0, version: 1 });
  });

  it.skipIf(!enabled)(
    'a GraphQL lookup then shows the learned prediction: later than the early carrier, its interval around it',
    async () => {
      const { eta, predictedArrival: p } = await predictionOf();
      expect(p).not.toBeNull();
      expect(p!.basis).not.toBe('CARRIER_ETA_ONLY');
      expect(p!.sampleSize).toBeGreaterThan(0);
      expect(p!.trainedAt).toBe(TRAINED_AT.toISOString());
      expect(p!.earliestDateTime <= p!.estimatedDateTime && p!.estimatedDateTime <= p!.latestDateTime).toBe(true);
      // On this lane the carrier's estimate has been two days early on every voyage: the prediction is later.
      expect(Date.parse(p!.estimatedDateTime) - Date.parse(eta)).toBeGreaterThan(DAY);
    },
  );

  /**
   * A selection with the prediction keeps the rest of its rendering for the version and writes this request's
   * prediction into it (src/executor/prediction-splice.ts): the answer is byte for byte the walk's (asked for inside
   * `... @include(if: true)`, which is never kept), at every time, wherever the prediction stands in the selection.
   */
  it.skipIf(!enabled)(
    'a selection with the prediction keeps the rest and writes the current prediction in, as the walk answers',
    async () => {
      let clock = NOW;
      // Another instance on the same database with a clock of the test's own, its snapshot cache on.
      const other = await createTestApp(name, {
        testDatabase: f.t,
        now: () => clock,
        config: testConfig({ TT_ETA_TRAINING: 'false', TT_ETA_MODEL_CHECK_SECONDS: '0' }),
      });
      const rendering = vi.spyOn(ShipmentSnapshot.prototype, 'rendering');
      try {
        const PREDICTION = 'predictedArrival { estimatedDateTime earliestDateTime latestDateTime coverage basis sampleSize trainedAt }';
        const FRAGMENT = 'fragment F on ShipmentTracking { eta transportEvents { eventID eventDateTime } }';
        const selections = [
          `{ eta ${PREDICTION} }`,
          `{ ${PREDICTION} eta exceptions { status exceptionType } }`,
          `{ eta p: predictedArrival { __typename basis b: basis estimatedDateTime basis } carrierCode containers { containerNumber } }`,
          `{ ...F carrierName ${PREDICTION} ... on ShipmentTracking { vesselName } }`,
          SHIPMENT_TRACKING_SELECTION.replace('serviceType etd eta', `serviceType ${PREDICTION} etd eta`),
        ];
        const answers = new Set<string>();
        // Earlier times too: a prediction uses only what was received by its time (docs/predicted-arrival.md).
        for (const hours of [0, 30, -10 * 24, -25 * 24]) {
          clock = new Date(NOW.getTime() + hours * 3_600_000);
          // A token of that time (one of the test's start has expired by then).
          const { token: own } = await other.tokenFor('acct-eta');
          for (const selection of selections) {
            const fragments = `${selection.includes('...F') ? FRAGMENT : ''}\n${selection.includes('...EquipmentEventFields') ? EQUIPMENT_EVENT_FRAGMENT : ''}`;
            const query = (tracking: string) =>
              `query P($b: String) { shipment(carrierCode: "MAEU", carrierBookingReference: $b) { shipmentTracking ${tracking} } }\n${fragments}`;
            const asked = async (tracking: string) => {
              const text = await (await other.graphql(query(tracking), { b: UNDER_WAY }, own)).text();
              expect(JSON.parse(text)).not.toHaveProperty('errors');
              return text.slice(0, text.indexOf(',"extensions"'));
            };
            const walked = await asked(`{ ... @include(if: true) ${selection} }`);
            rendering.mockClear();
            const spliced = await asked(selection);
            // From the second time on, the rest of the selection was kept: the lookup found it for the version.
            if (hours !== 0) expect([selection, rendering.mock.results.some((r) => r.value !== undefined)]).toEqual([selection, true]);
            // The header's transmissionID and time differ per request: the tracking is what is compared.
            const tracking = (text: string) => text.slice(text.indexOf('"shipmentTracking":'));
            expect([selection, tracking(spliced)]).toEqual([selection, tracking(walked)]);
            answers.add(tracking(spliced));
          }
        }
        // The prediction moved with the clock, and the kept answers moved with it.
        expect(answers.size).toBeGreaterThan(selections.length);
      } finally {
        rendering.mockRestore();
        await other.app.close();
      }
    },
  );

  it.skipIf(!enabled)('the REST default body and its ETag are unchanged by the model, and still answer 304', async () => {
    const response = await f.get(REST, token);
    const body = (await response.json()) as { shipmentTracking: unknown };
    expect(response.headers.get('etag')).toBe(before.etag);
    expect(JSON.stringify(body.shipmentTracking)).toBe(before.tracking);
    expect((await f.get(REST, token, { 'If-None-Match': before.etag! })).status).toBe(304);
  });

  it.skipIf(!enabled)('include=predictedArrival adds it to the same body, under a tag of its own', async () => {
    const response = await f.get(`${REST}&include=predictedArrival`, token);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { shipmentTracking: Record<string, unknown> };
    const { predictedArrival, ...rest } = body.shipmentTracking;
    expect(JSON.stringify(rest)).toBe(before.tracking);
    const { predictedArrival: graphql } = await predictionOf();
    expect(predictedArrival).toEqual(graphql);
    const etag = response.headers.get('etag');
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]{27}"$/);
    expect(etag).not.toBe(before.etag);
    // Its own tag answers 304 while neither the shipment nor the prediction moved; the default tag does not match it.
    expect((await f.get(`${REST}&include=predictedArrival`, token, { 'If-None-Match': etag! })).status).toBe(304);
    expect((await f.get(`${REST}&include=predictedArrival`, token, { 'If-None-Match': before.etag! })).status).toBe(200);
  });

  it.skipIf(!enabled)('an unknown or repeated include is a 400 in the DCSA error body', async () => {
    for (const query of [
      'include=predictedArival',
      'include=',
      'include=predictedArrival,eta',
      'include=predictedArrival&include=predictedArrival',
    ]) {
      const response = await f.get(`${REST}&${query}`, token);
      expect(response.status, query).toBe(400);
      const body = (await response.json()) as { errors: { property?: string; errorCodeMessage: string }[]; statusCode: number };
      expect(body.statusCode).toBe(400);
      expect(body.errors[0]?.property).toBe('include');
    }
  });

  it.skipIf(!enabled)('a lookup that does not select predictedArrival reads nothing for it', async () => {
    statements.length = 0;
    const response = await f.graphql(
      `{ shipment(carrierCode: "MAEU", carrierBookingReference: "${UNDER_WAY}") { shipmentTracking { eta } } }`,
      {},
      token,
    );
    expect(response.status).toBe(200);
    await f.get(REST, token);
    expect(statements.length).toBeGreaterThan(0);
    expect(statements.filter((s) => /eta_model|shipment_event/.test(s))).toEqual([]);
    statements.length = 0;
    await predictionOf();
    expect(statements.some((s) => /eta_model/.test(s))).toBe(true);
  });

  it.skipIf(!enabled)(
    'training is one instance at a time: a second trainer finds the lease taken, a stale one writes nothing',
    async () => {
      const db = f.t.database;
      const now = new Date();
      expect(await claimEtaTraining(db, 'instance-a', now, 60_000)).toEqual({ cursor: expect.any(String) });
      expect(await trainEta(db, { owner: 'instance-b', now: () => now, batchEvents: 50, pauseMs: 0 })).toEqual({ kind: 'busy' });
      // The lease ran out and another instance took it: the first one's commit is refused and writes nothing.
      const later = new Date(now.getTime() + 61_000);
      expect(await claimEtaTraining(db, 'instance-b', later, 60_000)).toBeDefined();
      const stored = await readLatestEtaModel(db.db);
      await expect(
        commitEtaModel(db.db, 'instance-a', { now: later, leaseMs: 60_000, cursor: '0', model: stored!.model, summary: stored! }),
      ).rejects.toBeInstanceOf(LostTrainingLease);
      expect((await readLatestEtaModel(db.db))?.version).toBe(stored!.version);
      expect((await readEtaTraining(db.db))?.lease_owner).toBe('instance-b');
      // Given back, the next run goes on from where the last commit left off.
      await releaseEtaTraining(db.db, 'instance-b', now, null);
    },
  );

  it.skipIf(!enabled)('a voyage that arrives later is folded in by the next run, into a new version every instance sees', async () => {
    const next = ARRIVED + 2;
    for (const { at, bundle } of voyageBundles(next, NOW.getTime() - 30 * DAY, { arrived: true })) await f.ingest(bundle, at);
    const result = await trainEta(f.t.database, { now: () => new Date(), batchEvents: 50, pauseMs: 0 });
    expect(result).toMatchObject({ kind: 'trained', learned: 1, voyages: ARRIVED + 1, version: 2 });
    // A second app on the same database (another instance) serves the same model version.
    const other = await createTestApp(name, { testDatabase: f.t, config: testConfig({ TT_ETA_TRAINING: 'false' }) });
    try {
      expect((await other.app.services.predictions.models.get())?.version).toBe(2);
    } finally {
      await other.app.close();
    }
    // The same document, asked again and again before, answers from the new model: nothing kept it for the version.
    const { predictedArrival } = await predictionOf();
    expect(predictedArrival?.trainedAt).not.toBe(TRAINED_AT.toISOString());
  });

  it.skipIf(!enabled)('a GraphQL GET that selects it is never conditional: no ETag, never 304', async () => {
    const query = encodeURIComponent(LOOKUP.replace('$b: String', '$b: String = "' + UNDER_WAY + '"'));
    const plain = encodeURIComponent(
      `{ shipment(carrierCode: "MAEU", carrierBookingReference: "${UNDER_WAY}") { shipmentTracking { eta } } }`,
    );
    const without = await f.get(`/graphql?query=${plain}`, token, { 'X-GraphQL-Yoga-CSRF': '1' });
    expect(without.status).toBe(200);
    expect(without.headers.get('etag')).toMatch(/^W\//);
    const selecting = await f.get(`/graphql?query=${query}`, token, { 'X-GraphQL-Yoga-CSRF': '1', 'If-None-Match': '*' });
    expect(selecting.status).toBe(200);
    expect(selecting.headers.get('etag')).toBeNull();
    expect(((await selecting.json()) as { data: unknown }).data).toMatchObject({
      shipment: { shipmentTracking: { predictedArrival: {} } },
    });
  });
});

describe.each(dialects)('background training of serve on $name', ({ name, enabled }) => {
  it.skipIf(!enabled)('trains in the background, then stops at once when asked, keeping what it committed', async () => {
    const t = await createTestDatabase(name);
    try {
      for (const { at, bundle } of voyageHistory({
        count: 10,
        underWay: 0,
        firstDeparture: new Date(NOW.getTime() - 70 * DAY),
        now: NOW,
      })) {
        const parsed = parseBundle(bundle);
        if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
        await ingestBundle(t.database, parsed.bundle, { now: () => at, thresholds: testConfig().thresholds });
      }
      const config = testConfig({ TT_ETA_TRAIN_INTERVAL_SECONDS: '1', TT_ETA_TRAIN_PAUSE_MS: '0' });
      const trainer = startEtaTrainer(config, t.database, createLogger('silent'));
      let stored = await readLatestEtaModel(t.database.db);
      for (let i = 0; i < 100 && !stored; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        stored = await readLatestEtaModel(t.database.db);
      }
      await trainer.stop();
      expect(stored).toMatchObject({ version: 1, voyages: 10 });
      // Stopped: the lease is free for the next instance.
      expect(await claimEtaTraining(t.database, 'next', new Date(), 1000)).toBeDefined();
    } finally {
      await t.destroy();
    }
  });
});

describe('predicted arrival training across stores', () => {
  it.skipIf(!dialects.every((d) => d.enabled))('gives the same model on SQLite and MariaDB', () => {
    expect(models.get('sqlite')).toBeDefined();
    expect(models.get('mysql')).toBe(models.get('sqlite'));
  });
});

describe('which selections of the prediction are spliced into a kept rendering', () => {
  const splice = (tracking: string, fragments = '') => {
    const document = parse(`{ shipment(billOfLadingNumber: "X") { shipmentTracking ${tracking} } }\n${fragments}`);
    const set = ((document.definitions[0] as OperationDefinitionNode).selectionSet.selections[0] as FieldNode).selectionSet
      ?.selections[0] as FieldNode;
    return predictionSplice(schema, document, set.selectionSet!);
  };
  const P = 'predictedArrival { basis estimatedDateTime }';

  it('splices it straight under shipmentTracking, at its place among the response keys, fragments counted', () => {
    expect(splice(`{ eta ${P} }`)).toMatchObject({ key: 'predictedArrival', index: 1, last: true });
    expect(splice(`{ p: predictedArrival { __typename b: basis } eta }`)).toMatchObject({ key: 'p', index: 0, last: false });
    expect(splice(`{ ...F ${P} eta }`, 'fragment F on ShipmentTracking { carrierCode etd }')).toMatchObject({ index: 2 });
  });

  it('walks every other selection of it: in a fragment, twice, under a directive, with an object in it', () => {
    expect(splice(`{ eta ... on ShipmentTracking { ${P} } }`)).toBeNull();
    expect(splice(`{ eta ${P} ...F }`, `fragment F on ShipmentTracking { ${P} }`)).toBeNull();
    expect(splice(`{ eta predictedArrival @include(if: true) { basis } }`)).toBeNull();
    expect(splice(`{ eta ${P} ... @skip(if: false) { etd } }`)).toBeNull();
  });
});
