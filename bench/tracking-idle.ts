import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { CarrierStore } from '../src/carriers/carrier-store.js';
import { TrackingFetcher, type FetchResult } from '../src/carriers/tracking-fetcher.js';
import { loadConfig } from '../src/config/config.js';
import { createTrackingRequest } from '../src/store/carriers/tracking-requests.js';
import { createBenchDatabase } from './databases.js';

/**
 * `npm run bench:tracking` (bench/README.md, Tracking requests): 1,000 active tracking requests against a fake
 * DCSA publisher when nothing changes, and the CPU the fetcher costs (process.cpuUsage over a window, as % of one
 * core). The publisher runs in a child process, so its own CPU is not counted.
 *
 *   --requests N   tracking requests (default 1000)
 *   --window S     seconds measured after every reference is TRACKING (default 30)
 *   --mysql        on MariaDB/MySQL (BENCH_MYSQL_URL) instead of a SQLite file
 *
 * Two cadences are measured: the defaults (TT_TRACKING_FETCH_MIN_SECONDS 300, MAX 21600: an idle reference is
 * fetched every 15 min to 6 h, so the window sees the fetcher's due-check ticks alone), and a stress cadence of 10
 * to 60 s (every reference fetched at least once a minute, nothing new each time).
 */

type Json = Record<string, unknown>;

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
}

/** The four events of bill of lading i (booking BKG<i>), arrival planned in 20 days: nothing is due soon. */
function events(i: number, now: number): Json[] {
  const bl = `MAEUB${String(i).padStart(6, '0')}`;
  const docs = [
    { documentReferenceType: 'BKG', documentReferenceValue: `BKG${i}` },
    { documentReferenceType: 'TRD', documentReferenceValue: bl },
  ];
  const call = (port: string) => ({
    transportCallID: `TC-${port}-${i}`,
    UNLocationCode: port,
    modeOfTransport: 'VESSEL',
    exportVoyageNumber: '401E',
    vessel: { vesselIMONumber: '9321483', vesselName: 'MAERSK ESSEN' },
  });
  const id = (n: number) => `0b7c9a2e-5d41-4c3a-8f6e-${(i * 4 + n).toString(16).padStart(12, '0')}`;
  const at = (days: number) => new Date(now + days * 86_400_000).toISOString();
  return [
    {
      eventID: id(0),
      eventType: 'SHIPMENT',
      eventClassifierCode: 'ACT',
      eventCreatedDateTime: at(-10),
      eventDateTime: at(-10),
      shipmentEventTypeCode: 'CONF',
      documentTypeCode: 'BKG',
      documentID: `BKG${i}`,
      documentReferences: [docs[1]],
    },
    ...[
      ['DEPA', 'NLRTM', -5, 'ACT'],
      ['ARRI', 'SGSIN', 20, 'PLN'],
    ].map(([code, port, days, classifier], n) => ({
      eventID: id(n + 1),
      eventType: 'TRANSPORT',
      eventClassifierCode: classifier,
      eventCreatedDateTime: at(-6),
      eventDateTime: at(Number(days)),
      transportEventTypeCode: code,
      transportCall: call(String(port)),
      documentReferences: docs,
    })),
    {
      eventID: id(3),
      eventType: 'EQUIPMENT',
      eventClassifierCode: 'ACT',
      eventCreatedDateTime: at(-5),
      eventDateTime: at(-5),
      equipmentEventTypeCode: 'LOAD',
      equipmentReference: 'MSKU1234565',
      emptyIndicatorCode: 'LADEN',
      transportCall: call('NLRTM'),
      documentReferences: docs,
    },
  ];
}

/** The child process: a DCSA publisher answering each bill of lading with its events (gte honoured). */
function publisher(count: number): void {
  const now = Date.now();
  const byBl = new Map<string, Json[]>();
  for (let i = 0; i < count; i++) byBl.set(`MAEUB${String(i).padStart(6, '0')}`, events(i, now));
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const gte = url.searchParams.get('eventCreatedDateTime:gte');
    const list = (byBl.get(url.searchParams.get('transportDocumentReference') ?? '') ?? []).filter(
      (e) => gte === null || String(e.eventCreatedDateTime) >= gte,
    );
    res.writeHead(200, { 'Content-Type': 'application/json', 'API-Version': '2.2.0' }).end(JSON.stringify(list));
  });
  server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
}

async function measure(label: string, env: Record<string, string>, count: number, windowS: number, mysql: boolean): Promise<number> {
  const child = fork(fileURLToPath(import.meta.url), ['--publisher', String(count)], { stdio: 'inherit' });
  const port = await new Promise<number>((resolve) => child.once('message', (m) => resolve((m as { port: number }).port)));
  const bench = await createBenchDatabase(mysql ? 'mysql' : 'sqlite', 'tt_bench_tracking');
  try {
    const config = loadConfig({ TT_LOG_LEVEL: 'silent', TT_TRACKING_FETCH_CONCURRENCY: '16', ...env });
    const carriers = new CarrierStore(bench.database.db, 'p'.repeat(32), config);
    await carriers.addCarrier({ carrierCode: 'MAEU', eventsUrl: `http://127.0.0.1:${port}/v2/events` });
    const start = new Date();
    for (let i = 0; i < count; i++) {
      await createTrackingRequest(
        bench.database.db,
        { carrierCode: 'MAEU', kind: 'TRD', reference: `MAEUB${String(i).padStart(6, '0')}`, clientId: 'bench', accountIds: ['bench'] },
        start,
        count,
      );
    }
    const outcomes = new Map<string, number>();
    const fetcher = new TrackingFetcher({
      database: bench.database,
      carriers,
      config,
      log: () => undefined,
      onFetch: (r: FetchResult) => outcomes.set(r.outcome, (outcomes.get(r.outcome) ?? 0) + 1),
    });
    const warm = Date.now();
    await fetcher.runOnce();
    const tracking = await bench.database.db
      .selectFrom('tracking_fetch')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'TRACKING')
      .executeTakeFirstOrThrow();
    console.log(`${label}: ${Number(tracking.n)} of ${count} references TRACKING after the first round (${Date.now() - warm} ms)`);
    outcomes.clear();
    fetcher.start();
    const cpu = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    await new Promise((resolve) => setTimeout(resolve, windowS * 1000));
    const used = process.cpuUsage(cpu);
    const elapsedUs = Number(process.hrtime.bigint() - t0) / 1000;
    await fetcher.stop();
    const percent = ((used.user + used.system) / elapsedUs) * 100;
    const fetches = [...outcomes.entries()].map(([k, v]) => `${k} ${v}`).join(', ') || 'none';
    console.log(`${label}: CPU ${percent.toFixed(2)} % of one core over ${windowS} s; fetches in the window: ${fetches}`);
    return percent;
  } finally {
    child.kill();
    await bench.destroy();
  }
}

if (process.argv[2] === '--publisher') {
  publisher(Number(process.argv[3]));
} else {
  const count = Number(arg('requests', '1000'));
  const windowS = Number(arg('window', '30'));
  const mysql = process.argv.includes('--mysql');
  console.log(`tracking requests, idle: ${count} active requests, ${mysql ? 'MariaDB/MySQL' : 'SQLite'}, ${windowS} s windows`);
  const idle = await measure(
    'default cadence',
    { TT_TRACKING_FETCH_MIN_SECONDS: '300', TT_TRACKING_FETCH_MAX_SECONDS: '21600' },
    count,
    windowS,
    mysql,
  );
  const stress = await measure(
    'stress cadence (10-60 s)',
    { TT_TRACKING_FETCH_MIN_SECONDS: '10', TT_TRACKING_FETCH_MAX_SECONDS: '60' },
    count,
    windowS,
    mysql,
  );
  console.log(`tracking idle CPU: default ${idle.toFixed(2)} %, stress ${stress.toFixed(2)} % of one core (target < 10 %)`);
  process.exit(0);
}
