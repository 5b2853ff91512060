import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationKey, signNotification } from '../src/carriers/notification-signature.js';
import { OPERATOR_INGEST_SCOPE } from '../src/auth/scopes.js';
import { ensureSandboxEdiCarrier, SANDBOX_EDI_CARRIER } from '../src/carriers/sandbox-carrier.js';
import { BASE, createTestApp, drainDeliveries, type TestApp } from './support/app-fixture.js';
import type { CliRun } from './support/cli-run.js';
import { runCaptured } from './support/cli-run.js';
import { dialects } from './support/databases.js';
import { edifactText, iftstaInterchange, iftstaSegments, x12Interchange, type EdiInterchangeSpec } from './support/edi-files.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

/**
 * EDI status messages in, end to end on each store (docs/carriers.md "EDI"): the real-shaped files of
 * the implementation guides followed (test/fixtures/edi) through `tracking ingest --format` to a
 * lookup and a webhook; a carrier's signed push; bad input (truncated interchanges, wrong segment
 * counts, wrong separators, unknown codes, bad dates, wrong check digits, a mix of good and bad
 * transactions); a re-sent interchange.
 */

const CARRIER = 'MAEU';
const ACCOUNT = 'acct-edi';
const BOOKING = 'MAEU260000001';
const BL = 'MAEU260000001B';
const CONTAINER = 'MSKU1234565';
const fixture = (name: string) => join(import.meta.dirname, 'fixtures', 'edi', name);

describe.each(dialects)('EDI ingest on $name', ({ name, enabled }) => {
  let f: TestApp;
  let receiver: WebhookReceiver;
  let token: string;
  let key: Buffer;
  let dir: string;
  const env = () => ({ DATABASE_URL: f.t.url, TT_BASE_URL: BASE, TT_LOG_LEVEL: 'silent' });
  const run = (...args: string[]): Promise<CliRun> => runCaptured(args, { env: env(), database: f.t.database });
  const file = (fileName: string, text: string) => {
    const path = join(dir, fileName);
    writeFileSync(path, text);
    return path;
  };

  beforeAll(async () => {
    if (!enabled) return;
    dir = mkdtempSync(join(tmpdir(), 'tt-edi-'));
    receiver = await WebhookReceiver.start();
    f = await createTestApp(name);
    const { secret } = await f.app.services.carriers.addCarrier({ carrierCode: CARRIER, name: 'Maersk' });
    const k = notificationKey(secret);
    if (!k.ok) throw new Error(k.message);
    key = k.key;
    ({ token } = await f.tokenFor(ACCOUNT, { subscribe: true }));
    await f.ingest({
      carrierCode: CARRIER,
      shipments: [
        {
          carrierBookingReference: BOOKING,
          billOfLadingNumber: BL,
          carrierCode: CARRIER,
          portOfLoading: { unLocationCode: 'CNSHA' },
          portOfDischarge: { unLocationCode: 'NLRTM' },
          accounts: [ACCOUNT],
          containers: [{ containerNumber: CONTAINER, isoType: '45G1' }],
        },
        {
          carrierBookingReference: 'EDIBAD1',
          carrierCode: CARRIER,
          accounts: [ACCOUNT],
          containers: [{ containerNumber: 'MSKU7654328' }],
        },
      ],
    });
    const response = await f.send('POST', '/v2/subscriptions', token, { callbackUrl: receiver.url, billOfLadingNumber: BL });
    expect(response.status).toBe(201);
  });
  afterAll(async () => {
    await f?.destroy();
    await receiver?.close();
  });

  async function lookup(): Promise<any> {
    const response = await f.get(`/v2/shipments?billOfLadingNumber=${BL}`, token);
    expect(response.status).toBe(200);
    return ((await response.json()) as { shipmentTracking: unknown }).shipmentTracking;
  }
  async function rejectedRows() {
    return f.t.database.db.selectFrom('rejected_event').selectAll().orderBy('id').execute();
  }
  async function eventCount(): Promise<number> {
    const row = await f.t.database.db
      .selectFrom('event')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  it.skipIf(!enabled)('refuses EDI from a carrier not configured to send it, and the option mistakes, with usage errors', async () => {
    const refused = await run('ingest', '--format', 'x12-315', '--carrier', CARRIER, fixture('cargosmart-315-4010.edi'));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('tracking carrier formats MAEU x12-315');
    expect((await run('ingest', '--format', 'x12-315', fixture('cargosmart-315-4010.edi'))).code).toBe(2);
    expect((await run('ingest', '--format', 'x12', '--carrier', CARRIER, fixture('cargosmart-315-4010.edi'))).code).toBe(2);
    const set = await run('carrier', 'formats', CARRIER, 'x12-315,iftsta');
    expect(set.code, set.stderr).toBe(0);
    expect((await run('carrier', 'formats', CARRIER, 'x12-315,edi')).code).toBe(2);
  });

  it.skipIf(!enabled)('takes the CargoSmart-style 315 (4010) end to end: lookup and webhook', async () => {
    const start = receiver.received.length;
    const result = await run('ingest', '--format', 'x12-315', '--carrier', CARRIER, '--json', fixture('cargosmart-315-4010.edi'));
    expect(result.code, result.stderr).toBe(0);
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({ format: 'x12-315', transactions: 2, transactionsRejected: 0, eventsUnlinked: 0, rejected: [] });
    // AE (LOAD), its ACT departure and EST arrival; VD repeats the departure, which is the same event.
    expect(summary.eventsStored).toBe(3);
    const s = await lookup();
    expect(s.etd).toBe('2026-03-05T03:00:00.000Z');
    expect(s.eta).toBe('2026-03-31T14:00:00.000Z');
    const container = s.containers.find((c: any) => c.containerNumber === CONTAINER);
    expect(container.latestEvent).toMatchObject({
      equipmentEventTypeCode: 'LOAD',
      eventClassifierCode: 'ACT',
      eventDateTime: '2026-03-04T22:15:00.000Z',
      emptyIndicatorCode: 'LADEN',
      transportCall: {
        unLocationCode: 'CNSHA',
        vessel: { vesselIMONumber: '9321483', vesselName: 'MAERSK ALPHA' },
        exportVoyageNumber: '610W',
      },
    });
    await drainDeliveries(f);
    const got = receiver.received.slice(start).filter((r) => r.json?.transmissionHeader?.triggerType === 'EVENT_TRIGGER');
    expect(got.length).toBeGreaterThan(0);
    expect(got.some((r) => r.body.includes(BL) && r.body.includes('"LOAD"'))).toBe(true);
  });

  it.skipIf(!enabled)('takes the 5010 315 end to end: the arrival and the discharge', async () => {
    const result = await run('ingest', '--format', 'x12-315', '--carrier', CARRIER, fixture('cargosmart-315-5010.edi'));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/transactions 2 stored, 0 rejected/);
    const s = await lookup();
    expect(s.transportEvents.map((e: any) => `${e.transportEventTypeCode}/${e.eventClassifierCode}`)).toContain('ARRI/ACT');
    const container = s.containers.find((c: any) => c.containerNumber === CONTAINER);
    expect(container.latestEvent).toMatchObject({ equipmentEventTypeCode: 'DISC', eventDateTime: '2026-04-01T02:30:00.000Z' });
  });

  it.skipIf(!enabled)('takes the SMDG-style IFTSTA (D.99B) end to end, and a re-sent interchange changes nothing', async () => {
    const start = receiver.received.length;
    const result = await run('ingest', '--format', 'iftsta', '--carrier', CARRIER, '--json', fixture('smdg-iftsta-d99b.edi'));
    expect(result.code, result.stderr).toBe(0);
    const summary = JSON.parse(result.stdout);
    // OA and RD are new; the actual arrival (DTM+178) is the one the 5010 315 reported (VA): the same event.
    expect(summary).toMatchObject({ transactions: 2, transactionsRejected: 0, eventsStored: 2, eventsAlreadyStored: 1 });
    const s = await lookup();
    const container = s.containers.find((c: any) => c.containerNumber === CONTAINER);
    expect(container.latestEvent).toMatchObject({
      equipmentEventTypeCode: 'GTIN',
      emptyIndicatorCode: 'EMPTY',
      eventDateTime: '2026-04-03T10:00:00.000Z',
    });
    await drainDeliveries(f);
    expect(receiver.received.length).toBeGreaterThan(start);

    const version = (await f.get(`/v2/shipments?billOfLadingNumber=${BL}`, token)).headers.get('etag');
    const events = await eventCount();
    const rejected = (await rejectedRows()).length;
    const again = await run('ingest', '--format', 'iftsta', '--carrier', CARRIER, '--json', fixture('smdg-iftsta-d99b.edi'));
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({
      interchanges: [{ controlNumber: '815', alreadyReceived: true }],
      eventsStored: 0,
      transactions: 0,
    });
    expect(await eventCount()).toBe(events);
    expect((await rejectedRows()).length).toBe(rejected);
    expect((await f.get(`/v2/shipments?billOfLadingNumber=${BL}`, token)).headers.get('etag')).toBe(version);
  });

  const spec = (control: string, messages: EdiInterchangeSpec['messages']): EdiInterchangeSpec => ({
    sender: 'MAEUBAD',
    control,
    issued: '2026-04-05T10:00:00.000Z',
    messages,
  });
  /** The ISA declares `*`; the segments after it use `|`. */
  const otherSeparators = (text: string) => {
    const [isa, ...rest] = text.split('\n');
    return [isa, ...rest.map((line) => line.replaceAll('*', '|'))].join('\n');
  };
  const good = (control: string, at: string) => ({
    control,
    status: 'I',
    at,
    container: 'MSKU7654328',
    locode: 'CNSHA',
    booking: 'EDIBAD1',
  });

  it.skipIf(!enabled)('stores the good transactions of a mixed interchange and keeps each bad one with its position', async () => {
    const before = await eventCount();
    const text = x12Interchange(
      spec('9001', [
        good('0001', '2026-04-04T08:00:00.000Z'),
        { ...good('0002', '2026-04-04T09:00:00.000Z'), status: 'XX' },
        { ...good('0003', '2026-04-04T10:00:00.000Z'), container: 'MSKU7654321' },
        good('0004', '2026-04-04T11:00:00.000Z'),
        { ...good('0005', '2026-04-04T12:00:00.000Z'), status: 'AE', vessel: { name: 'EDI BAD', imo: '9321484' }, voyage: '1E' },
      ]),
    ).replace('B4***I*20260404*1100', 'B4***I*20260431*1100');
    const result = await run('ingest', '--format', 'x12-315', '--carrier', CARRIER, file('mixed.edi', text));
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/transactions 1 stored, 4 rejected; events 1 stored/);
    expect(result.stderr).toContain('interchange 9001, transaction 0002, segment B4 at position 2: unknown status code "XX"');
    expect(result.stderr).toContain(
      'interchange 9001, transaction 0003, segment B4 at position 2: container MSKU7654321 has a wrong check digit',
    );
    expect(result.stderr).toContain('interchange 9001, transaction 0004, segment B4 at position 2: bad date "2026-04-31');
    expect(result.stderr).toMatch(
      /transaction 0005, segment B4 at position 2: the DCSA event it maps to is invalid: transportCall\.vessel\.vesselIMONumber/,
    );
    expect(await eventCount()).toBe(before + 1);
    const kept = (await rejectedRows()).filter((r) => r.source === 'x12-315');
    expect(kept.map((r) => JSON.parse(r.event_json).transaction)).toEqual(['0002', '0003', '0004', '0005']);
    expect(JSON.parse(kept[0]!.event_json).segments[1]).toEqual([
      'B4',
      '',
      '',
      'XX',
      '20260404',
      '0900',
      '',
      'MSKU',
      '7654328',
      '',
      '',
      'CNSHA',
      'UN',
    ]);
    const listed = await run('carrier', 'rejected', 'list', '--carrier', CARRIER);
    expect(listed.stdout).toContain('interchange 9001, transaction 0002, segment B4 at position 2');
    // Kept as segments, not DCSA JSON: a replay leaves them kept (the carrier sends them again, corrected).
    const replay = await run('carrier', 'rejected', 'replay', '--carrier', CARRIER);
    expect(replay.code).toBe(1);
    expect((await rejectedRows()).filter((r) => r.source === 'x12-315')).toHaveLength(4);
    // Sent again: nothing changes, nothing is counted again.
    const again = await run('ingest', '--format', 'x12-315', '--carrier', CARRIER, file('mixed.edi', text));
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('already received (9001: nothing done)');
    expect((await rejectedRows()).filter((r) => r.source === 'x12-315').map((r) => r.times_rejected)).toEqual([1, 1, 1, 1]);
  });

  it.skipIf(!enabled)('rejects an IFTSTA message with a wrong UNT count alone, and takes the others', async () => {
    const interchange = spec('9101', [good('1', '2026-04-04T12:00:00.000Z'), good('2', '2026-04-04T13:00:00.000Z')]);
    const text = iftstaInterchange(interchange).replace("UNT+9+2'", "UNT+11+2'");
    const result = await run('ingest', '--format', 'iftsta', '--carrier', CARRIER, file('count.edi', text));
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/transactions 1 stored, 1 rejected/);
    expect(result.stderr).toContain(
      'interchange 9101, transaction 2, segment UNT at position 9: UNT 0074 (11) does not match the number of segments in the message (9)',
    );
  });

  it.skipIf(!enabled)('rejects an X12 transaction with a wrong SE count alone', async () => {
    const text = x12Interchange(spec('9201', [good('0001', '2026-04-04T14:00:00.000Z'), good('0002', '2026-04-04T15:00:00.000Z')])).replace(
      'SE*4*0002',
      'SE*6*0002',
    );
    const result = await run('ingest', '--format', 'x12-315', '--carrier', CARRIER, file('se.edi', text));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'transaction 0002, segment SE at position 4: The value in SE01 (6) does not match the number of segments in the transaction (4)',
    );
  });

  it.skipIf(!enabled)(
    'refuses whole, writing nothing, a truncated interchange, a wrong group count and wrong separators; each is kept',
    async () => {
      const x12 = x12Interchange(spec('9301', [good('0001', '2026-04-04T16:00:00.000Z')]));
      const iftsta = iftstaInterchange(spec('9302', [good('1', '2026-04-04T17:00:00.000Z')]));
      const cases: [format: string, text: string, message: RegExp][] = [
        ['x12-315', x12.slice(0, x12.indexOf('GE*')), /truncated: it has no IEA segment|truncated or malformed/],
        ['x12-315', x12.replace('GE*1*', 'GE*3*'), /GE01 \(3\) does not match/],
        ['x12-315', otherSeparators(x12), /are the separators those the ISA declares/],
        ['iftsta', iftsta.slice(0, iftsta.indexOf('UNZ')), /truncated: it has no UNZ segment/],
        ['iftsta', iftsta.slice(0, iftsta.length - 8), /ends inside a segment/],
        ['iftsta', iftsta.replace('UNZ+1+', 'UNZ+4+'), /UNZ 0036 \(4\)/],
        ['iftsta', iftsta.replace("UNA:+.? '", '').replaceAll('+', '|'), /separators/],
      ];
      for (const [i, [format, text, message]] of cases.entries()) {
        const before = await eventCount();
        const kept = (await rejectedRows()).length;
        const result = await run('ingest', '--format', format, '--carrier', CARRIER, file(`bad${i}.edi`, text));
        expect(result.code, `${i}: ${result.stdout}`).toBe(1);
        expect(result.stderr, String(i)).toMatch(/refused whole, nothing written \(kept as a rejected event\)/);
        expect(result.stderr, String(i)).toMatch(message);
        expect(await eventCount()).toBe(before);
        expect((await rejectedRows()).length).toBe(kept + 1);
      }
    },
  );

  it.skipIf(!enabled)(
    'takes a signed EDI push like a DCSA notification, and refuses a bad signature or an unconfigured format',
    async () => {
      const text = edifactText([
        { name: 'UNB', elements: [['UNOC', '3'], ['MAEU', 'ZZZ'], ['TRACKING', 'ZZZ'], ['260405', '1100'], ['9401']] },
        ...iftstaSegments(good('1', '2026-04-05T09:00:00.000Z'), '2026-04-05T11:00:00.000Z'),
        { name: 'UNZ', elements: [['1'], ['9401']] },
      ]);
      const push = (body: string, type: string, signature = signNotification(body, key)) =>
        f.app.fetch(`${BASE}/v2/carrier-notifications/${CARRIER}`, {
          method: 'POST',
          headers: { 'Content-Type': type, 'Notification-Signature': signature },
          body,
        });
      expect((await push(text, 'application/edifact', signNotification(text, Buffer.alloc(32)))).status).toBe(401);
      const before = await eventCount();
      const response = await push(text, 'application/edifact');
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ format: 'iftsta', eventsStored: 1, rejected: [] });
      expect(await eventCount()).toBe(before + 1);
      const unreadable = await push('UNB+nonsense', 'application/edifact');
      expect(unreadable.status).toBe(400);
      await f.app.services.carriers.setEdiFormats(CARRIER, ['x12-315']);
      expect((await push(text, 'application/edifact')).status).toBe(415);
      await f.app.services.carriers.setEdiFormats(CARRIER, ['x12-315', 'iftsta']);
    },
  );

  it.skipIf(!enabled)('gives the sandbox its EDI example carrier, once however many instances start', async () => {
    await Promise.all([ensureSandboxEdiCarrier(f.app.services.carriers), ensureSandboxEdiCarrier(f.app.services.carriers)]);
    await ensureSandboxEdiCarrier(f.app.services.carriers);
    const listed = (await f.app.services.carriers.listCarriers()).filter((c) => c.carrierCode === SANDBOX_EDI_CARRIER);
    expect(listed.map((c) => c.ediFormats)).toEqual([['x12-315', 'iftsta']]);
    const result = await run(
      'ingest',
      '--format',
      'iftsta',
      '--carrier',
      SANDBOX_EDI_CARRIER,
      file('sedi.edi', iftstaInterchange(spec('9501', [good('1', '2026-04-06T08:00:00.000Z')]))),
    );
    expect(result.code, result.stderr).toBe(0);
  });

  it.skipIf(!enabled)('takes EDI on the operator route with carrierCode', async () => {
    const ops = await f.tokenFor('ops');
    await f.app.clients.setScope(ops.clientId, OPERATOR_INGEST_SCOPE, true);
    const grant = await f.app.tokens.issueToken({ clientId: ops.clientId, scope: OPERATOR_INGEST_SCOPE });
    const text = readFileSync(fixture('cargosmart-315-4010.edi'), 'utf8').replaceAll('4711', '4799');
    const post = (query: string) =>
      f.app.fetch(`${BASE}/v2/operator/ingest${query}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/edi-x12', Authorization: `Bearer ${grant.access_token}` },
        body: text,
      });
    expect((await post('')).status).toBe(400);
    const response = await post(`?carrierCode=${CARRIER}`);
    expect(response.status).toBe(200);
    // A new control number, the same facts: the events are already stored.
    expect(await response.json()).toMatchObject({ transactions: 2, transactionsRejected: 0, eventsStored: 0, eventsAlreadyStored: 3 });
  });
});
