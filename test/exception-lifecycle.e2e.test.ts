import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app-fixture.js';
import { createTestDatabase, dialects, type TestDatabase } from './support/databases.js';

/**
 * The exception lifecycle as a poller sees it: an operator ingests carrier
 * bundles one after another with the CLI, and a client polls GET /v2/shipments.
 */
const BIN = new URL('../dist/src/cli/main.js', import.meta.url).pathname;
const BOOKING = 'LIFE-1';
const BL = 'LIFEBL1';
const PLANNED_ARRIVAL = '2026-10-20T06:00:00.000Z';

let n = 0;
function arrival(classifier: 'PLN' | 'EST' | 'ACT', at: string, created: string) {
  n++;
  return {
    eventID: `e2e00000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    eventType: 'TRANSPORT',
    eventClassifierCode: classifier,
    eventDateTime: at,
    eventCreatedDateTime: created,
    transportEventTypeCode: 'ARRI',
    documentReferences: [{ documentReferenceType: 'BKG', documentReferenceValue: BOOKING }],
    transportCall: {
      modeOfTransport: 'VESSEL',
      UNLocationCode: 'SGSIN',
      facilityTypeCode: 'POTE',
      vessel: { vesselName: 'EVER GIVEN', vesselIMONumber: '9811000' },
      importVoyageNumber: '0042E',
    },
  };
}

describe.each(dialects)('exception lifecycle through the CLI and REST on $name', ({ name, enabled }) => {
  let t: TestDatabase;
  let f: TestApp;
  let token: string;
  let dir: string;

  beforeAll(async () => {
    if (!enabled) return;
    t = await createTestDatabase(name);
    f = await createTestApp(name, { testDatabase: t });
    ({ token } = await f.tokenFor('acct-life'));
    dir = mkdtempSync(join(tmpdir(), 'tt-e2e-'));
  });
  afterAll(async () => {
    await f?.destroy();
    await t?.destroy();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  function ingest(bundle: unknown) {
    const file = join(dir, `bundle-${n}.json`);
    writeFileSync(file, JSON.stringify(bundle));
    const result = spawnSync(process.execPath, [BIN, 'ingest', file], {
      env: { ...process.env, DATABASE_URL: t.url, TT_LOG_LEVEL: 'warn' },
      encoding: 'utf8',
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  }

  async function poll() {
    const response = await f.get(`/v2/shipments?billOfLadingNumber=${BL}`, token);
    expect(response.status).toBe(200);
    return ((await response.json()) as any).shipmentTracking;
  }

  it.skipIf(!enabled)(
    'detects, worsens and recovers an ETA delay with one exceptionID; a new delay is a new exception the operator clears',
    async () => {
      ingest({
        carrierCode: 'EGLV',
        shipments: [
          {
            carrierBookingReference: BOOKING,
            billOfLadingNumber: BL,
            carrierCode: 'EGLV',
            carrierName: 'Evergreen',
            portOfLoading: { unLocationCode: 'CNSHA' },
            portOfDischarge: { unLocationCode: 'SGSIN' },
            references: {},
            accounts: ['acct-life'],
            containers: [],
          },
        ],
        events: [arrival('PLN', PLANNED_ARRIVAL, '2026-10-01T00:00:00Z')],
      });
      let s = await poll();
      expect(s.eta).toBe(PLANNED_ARRIVAL);
      expect(s.exceptions).toEqual([]);

      // The estimate slips 20 h: a WARNING delay, eta updated.
      ingest({ carrierCode: 'EGLV', events: [arrival('EST', '2026-10-21T02:00:00Z', '2026-10-10T00:00:00Z')] });
      s = await poll();
      expect(s.eta).toBe('2026-10-21T02:00:00.000Z');
      expect(s.exceptions).toHaveLength(1);
      const detected = s.exceptions[0];
      expect(detected).toMatchObject({
        exceptionType: 'ETA_DELAY',
        exceptionCategory: 'SCHEDULE',
        severity: 'WARNING',
        status: 'DETECTED',
        impact: { field: 'eta', previousValue: PLANNED_ARRIVAL, revisedValue: '2026-10-21T02:00:00.000Z', delayHours: 20 },
      });

      // It worsens to 60 h: same exception, CRITICAL, no duplicate.
      ingest({ carrierCode: 'EGLV', events: [arrival('EST', '2026-10-22T18:00:00Z', '2026-10-12T00:00:00Z')] });
      s = await poll();
      expect(s.exceptions).toHaveLength(1);
      expect(s.exceptions[0]).toMatchObject({
        exceptionID: detected.exceptionID,
        severity: 'CRITICAL',
        status: 'DETECTED',
        detectedDateTime: detected.detectedDateTime,
        impact: { delayHours: 60 },
      });

      // The schedule recovers to 2 h late: RESOLVED with the same ID, eta moves back.
      ingest({ carrierCode: 'EGLV', events: [arrival('EST', '2026-10-20T08:00:00Z', '2026-10-14T00:00:00Z')] });
      s = await poll();
      expect(s.eta).toBe('2026-10-20T08:00:00.000Z');
      expect(s.exceptions).toHaveLength(1);
      expect(s.exceptions[0]).toMatchObject({
        exceptionID: detected.exceptionID,
        status: 'RESOLVED',
        resolutionType: 'SCHEDULE_RECOVERED',
        impact: { previousValue: '2026-10-22T18:00:00.000Z', revisedValue: '2026-10-20T08:00:00.000Z', delayHours: 2 },
      });
      expect(s.exceptions[0].resolvedDateTime).toBeTruthy();
      expect(s.exceptions[0].resolutionNote).toBeTruthy();

      // It slips again: a new exception (the recovered one stays RESOLVED), and the operator clears it.
      ingest({ carrierCode: 'EGLV', events: [arrival('EST', '2026-10-21T20:00:00Z', '2026-10-15T00:00:00Z')] });
      s = await poll();
      expect(s.exceptions).toHaveLength(2);
      expect(s.exceptions[0]).toMatchObject({
        exceptionID: detected.exceptionID,
        status: 'RESOLVED',
        resolutionType: 'SCHEDULE_RECOVERED',
      });
      const again = s.exceptions[1];
      expect(again).toMatchObject({ exceptionType: 'ETA_DELAY', status: 'DETECTED', detectedDateTime: '2026-10-15T00:00:00.000Z' });
      expect(again.exceptionID).not.toBe(detected.exceptionID);
      const cleared = spawnSync(process.execPath, [BIN, 'exception', 'clear', again.exceptionID, '--note', 'carrier confirmed berth'], {
        env: { ...process.env, DATABASE_URL: t.url, TT_LOG_LEVEL: 'warn' },
        encoding: 'utf8',
      });
      expect(cleared.status).toBe(0);
      s = await poll();
      expect(s.exceptions[1]).toMatchObject({
        exceptionID: again.exceptionID,
        status: 'RESOLVED',
        resolutionType: 'MANUAL_CLEAR',
        resolutionNote: 'carrier confirmed berth',
      });

      // An older estimate of the same ongoing delay arrives late: the clear holds, nothing comes back.
      ingest({ carrierCode: 'EGLV', events: [arrival('EST', '2026-10-21T12:00:00Z', '2026-10-14T12:00:00Z')] });
      s = await poll();
      expect(s.exceptions).toHaveLength(2);
      expect(s.exceptions[1]).toMatchObject({ exceptionID: again.exceptionID, status: 'RESOLVED', resolutionType: 'MANUAL_CLEAR' });

      // The vessel arrives: the milestone turns ACT and eta is the actual time; nothing is raised again.
      ingest({ carrierCode: 'EGLV', events: [arrival('ACT', '2026-10-21T22:00:00Z', '2026-10-21T22:05:00Z')] });
      s = await poll();
      expect(s.eta).toBe('2026-10-21T22:00:00.000Z');
      expect(s.exceptions.map((e: any) => [e.exceptionID, e.status])).toEqual([
        [detected.exceptionID, 'RESOLVED'],
        [again.exceptionID, 'RESOLVED'],
      ]);
    },
    180_000,
  ); // a dozen CLI processes, one after another: slow on a busy machine
});
