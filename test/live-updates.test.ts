import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE, createTestApp, testConfig, type TestApp } from './support/app-fixture.js';
import { createTestDatabase, dialects, type TestDatabase } from './support/databases.js';

/**
 * Live GraphQL subscriptions over Server-Sent Events (issue 11): a subscriber
 * of shipmentUpdates receives the change an operator's `tracking ingest`
 * commits from another process, as a Transmission with its trigger.
 */
const BIN = new URL('../dist/src/cli/main.js', import.meta.url).pathname;
const ACCOUNT = 'acct-live';
const BL = 'LIVEBL1';

let n = 0;
const arrival = (classifier: 'PLN' | 'EST' | 'ACT', at: string, created: string) => ({
  eventID: `11fe0000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
  eventType: 'TRANSPORT',
  eventClassifierCode: classifier,
  eventDateTime: at,
  eventCreatedDateTime: created,
  transportEventTypeCode: 'ARRI',
  documentReferences: [{ documentReferenceType: 'BKG', documentReferenceValue: 'LIVE-1' }],
  transportCall: {
    transportCallID: 'TC-LIVE',
    modeOfTransport: 'VESSEL',
    UNLocationCode: 'NLRTM',
    vessel: { vesselName: 'EVER GIVEN', vesselIMONumber: '9811000' },
  },
});

/** Reads Server-Sent Events from a response, yielding each data payload parsed. */
async function* events(response: Response): AsyncGenerator<any> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = block
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trim())
        .join('');
      if (data) yield JSON.parse(data);
    }
  }
}

describe.each(dialects)('live updates over SSE on $name', ({ name, enabled }) => {
  let t: TestDatabase;
  let f: TestApp;
  let token: string;
  let dir: string;

  beforeAll(async () => {
    if (!enabled) return;
    t = await createTestDatabase(name);
    f = await createTestApp(name, { testDatabase: t, config: testConfig({ TT_DELIVERY_POLL_MS: '100' }) });
    ({ token } = await f.tokenFor(ACCOUNT));
    await f.ingest({
      carrierCode: 'EGLV',
      shipments: [
        {
          carrierBookingReference: 'LIVE-1',
          billOfLadingNumber: BL,
          carrierCode: 'EGLV',
          portOfLoading: { unLocationCode: 'CNSHA' },
          portOfDischarge: { unLocationCode: 'NLRTM' },
          accounts: [ACCOUNT],
        },
      ],
      events: [arrival('PLN', '2026-10-20T06:00:00Z', '2026-10-01T00:00:00Z')],
    });
    dir = mkdtempSync(join(tmpdir(), 'tt-live-'));
  });
  afterAll(async () => {
    await f?.destroy();
    await t?.destroy();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  function subscribe(query: string, bearer: string | null = token, signal?: AbortSignal) {
    return f.app.fetch(`${BASE}/graphql`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'text/event-stream',
        ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}),
      },
      body: JSON.stringify({ query }),
      ...(signal ? { signal } : {}),
    });
  }

  it.skipIf(!enabled)('streams the change of a CLI ingest in another process as a Transmission', async () => {
    const abort = new AbortController();
    const response = await subscribe(
      `subscription { shipmentUpdates(billOfLadingNumber: "${BL}") {
        transmissionHeader { triggerType triggeredByEvent transmissionID }
        shipmentTracking { eta exceptions { exceptionType status } }
      } }`,
      token,
      abort.signal,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const stream = events(response);
    // Give the feed its starting point before the change is committed.
    await new Promise((r) => setTimeout(r, 200));

    const late = arrival('EST', '2026-10-21T20:00:00Z', '2026-10-10T00:00:00Z');
    const file = join(dir, 'late.json');
    writeFileSync(file, JSON.stringify({ carrierCode: 'EGLV', events: [late] }));
    const cli = spawnSync(process.execPath, [BIN, 'ingest', file], {
      env: { ...process.env, DATABASE_URL: t.url, TT_LOG_LEVEL: 'warn' },
      encoding: 'utf8',
    });
    expect(cli.status, cli.stderr).toBe(0);

    const first = await Promise.race([
      stream.next(),
      new Promise((_, reject) => setTimeout(() => reject(new Error('no live update within 5 s')), 5000)),
    ]);
    abort.abort();
    // Like every GraphQL answer, the event carries the cost: the document's, and the quota as subscribing left it.
    const cost = (first as IteratorResult<any>).value.extensions.cost;
    expect(cost).toMatchObject({ maximumQueryCost: 5000, throttleStatus: { quota: 'lookups', cost: 1 } });
    expect(cost.requestedQueryCost).toBeGreaterThan(0);
    expect(cost.throttleStatus.remaining).toBeLessThan(cost.throttleStatus.limit);
    expect((first as IteratorResult<any>).value.data.shipmentUpdates).toEqual({
      transmissionHeader: {
        triggerType: 'EXCEPTION_DETECTED',
        triggeredByEvent: late.eventID,
        transmissionID: expect.stringMatching(/^TXN-\d+$/),
      },
      shipmentTracking: { eta: '2026-10-21T20:00:00.000Z', exceptions: [{ exceptionType: 'ETA_DELAY', status: 'DETECTED' }] },
    });
  });

  it.skipIf(!enabled)('asks for a token first, and answers NOT_FOUND for a shipment of another account', async () => {
    const query = `subscription { shipmentUpdates(billOfLadingNumber: "${BL}") { transmissionHeader { triggerType } } }`;
    const anonymous = await subscribe(query, null);
    const [refusal] = await (async () => {
      const out = [];
      for await (const e of events(anonymous)) {
        out.push(e);
        break;
      }
      return out;
    })();
    expect(refusal.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    const stranger = await f.tokenFor('acct-stranger');
    for await (const e of events(await subscribe(query, stranger.token))) {
      expect(e.errors[0].extensions.code).toBe('NOT_FOUND');
      break;
    }
  });
});
