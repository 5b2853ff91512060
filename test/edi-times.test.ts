import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestEdi, readInterchanges } from '../src/carriers/edi-ingest.js';
import { ediStatusEvents, type DcsaEventObject, type EdiFormat } from '../src/domain/edi-status-map.js';
import type { EdiTimes } from '../src/domain/edi-times.js';
import { wallTimeToInstant } from '../src/domain/time-zones/local-time.js';
import { zoneOfLocation } from '../src/domain/time-zones/location-zone.js';
import { BASE, createTestApp, type TestApp } from './support/app-fixture.js';
import { runCaptured, type CliRun } from './support/cli-run.js';
import { dialects } from './support/databases.js';

/**
 * EDI times where the carrier's clock is (docs/carriers.md "Times"): each time source of the 315 and the IFTSTA
 * read as the guides say (the local time of its location, a zone code's offset, LT, UTC where no location is
 * named), summer time from the IANA database across its changes, a location whose zone cannot be known refused
 * by name, and a carrier that sends UTC (`tracking carrier formats --times utc`), on both stores.
 */

const CARRIER = 'MAEU';

const x12 = (body: string, control = '000000501') =>
  [
    `ISA*00*          *00*          *02*MAEU           *ZZ*TRACKING       *260305*0800*U*00401*${control}*0*P*>`,
    `GS*QO*MAEU*TRACKING*20260305*0800*${Number(control)}*X*004010`,
    'ST*315*0001',
    ...body.trim().split('\n'),
    `SE*${body.trim().split('\n').length + 2}*0001`,
    `GE*1*${Number(control)}`,
    `IEA*1*${control}`,
  ].join('~\n') + '~\n';

const iftsta = (body: string, control = '601') => {
  const segments = ['UNH+1+IFTSTA:D:99B:UN', 'BGM+23+ST1+9', 'DTM+137:202603050800:203', ...body.trim().split('\n')];
  return `UNA:+.? '\nUNB+UNOA:2+MAEU:ZZZ+TRACKING:ZZZ+260305:0800+${control}'\n${[...segments, `UNT+${segments.length + 1}+1`]
    .map((s) => `${s}'`)
    .join('\n')}\nUNZ+1+${control}'\n`;
};

/** The events of the only transaction of an interchange, or its refusal. */
function mapped(format: EdiFormat, text: string, times: EdiTimes = 'local'): DcsaEventObject[] | string {
  const tx = readInterchanges(format, text)[0]!.transactions[0]!;
  if (!tx.result.ok) return `${tx.result.at?.tag}@${tx.result.at?.position}: ${tx.result.problem}`;
  try {
    return ediStatusEvents(tx.result.status, CARRIER, times);
  } catch (err) {
    const at = (err as { at?: { tag: string; position: number } }).at;
    return `${at?.tag}@${at?.position}: ${(err as Error).message}`;
  }
}

const times = (events: DcsaEventObject[] | string) =>
  typeof events === 'string' ? events : events.map((e) => `${e.eventClassifierCode} ${e.eventDateTime}`);

const GATE_IN = (date: string, time: string, locode: string) => `B4***I*${date}*${time}**MSKU*123456*L*45G1*${locode}*UN*5\nN9*BM*MAEUTZ1`;
const DEPARTURE = (dtm: string, locode = 'USLAX') =>
  `B4***VD*20260305*0930**MSKU*123456*L*45G1*${locode}*UN*5\nN9*BM*MAEUTZ1\nQ2*9321483********610W***L*MAERSK ALPHA\nR4*L*UN*${locode}*PORT\n${dtm}`;

describe('EDI time sources', () => {
  it('B4-04/05 is the local time of the status location: 09:30 at Shanghai is 01:30Z', () => {
    expect(times(mapped('x12-315', x12(GATE_IN('20260305', '0930', 'CNSHA'))))).toEqual(['ACT 2026-03-05T01:30:00.000Z']);
    // The same digits at Santos (-03:00, no summer time) and Los Angeles (-08:00 before 8 March 2026).
    expect(times(mapped('x12-315', x12(GATE_IN('20260305', '0930', 'BRSSZ'))))).toEqual(['ACT 2026-03-05T12:30:00.000Z']);
    expect(times(mapped('x12-315', x12(GATE_IN('20260305', '0930', 'USLAX'))))).toEqual(['ACT 2026-03-05T17:30:00.000Z']);
    // A status without B4-11 takes the port its code names (VD: the R4 port of loading).
    const noB4Location = `B4***VD*20260305*0930**MSKU*123456*L*45G1***5\nN9*BM*MAEUTZ1\nR4*L*UN*CNSHA*SHANGHAI`;
    expect(times(mapped('x12-315', x12(noB4Location)))).toEqual(['ACT 2026-03-05T01:30:00.000Z']);
  });

  it('a DTM with a zone code is read at that offset, wherever its port is', () => {
    expect(times(mapped('x12-315', x12(DEPARTURE('DTM*139*20260306*0930*PS'))))).toEqual([
      'ACT 2026-03-05T17:30:00.000Z',
      'EST 2026-03-06T17:30:00.000Z',
    ]);
    expect(times(mapped('x12-315', x12(DEPARTURE('DTM*139*20260306*0930*UT', 'CNSHA'))))[1]).toBe('EST 2026-03-06T09:30:00.000Z');
  });

  it('a DTM with LT, or without DTM-04, is the local time of its R4 port, summer time included', () => {
    // Los Angeles moves from -08:00 to -07:00 on 8 March 2026.
    expect(times(mapped('x12-315', x12(DEPARTURE('DTM*139*20260306*0930*LT'))))[1]).toBe('EST 2026-03-06T17:30:00.000Z');
    expect(times(mapped('x12-315', x12(DEPARTURE('DTM*139*20260310*0930*LT'))))[1]).toBe('EST 2026-03-10T16:30:00.000Z');
    expect(times(mapped('x12-315', x12(DEPARTURE('DTM*139*20260310*0930'))))[1]).toBe('EST 2026-03-10T16:30:00.000Z');
    // A carrier that sends UTC: no DTM-04 is UTC, LT is still local, a zone code its offset.
    expect(times(mapped('x12-315', x12(DEPARTURE('DTM*139*20260310*0930')), 'utc'))).toEqual([
      'ACT 2026-03-05T09:30:00.000Z',
      'EST 2026-03-10T09:30:00.000Z',
    ]);
    expect(times(mapped('x12-315', x12(DEPARTURE('DTM*139*20260310*0930*LT')), 'utc'))[1]).toBe('EST 2026-03-10T16:30:00.000Z');
    expect(times(mapped('x12-315', x12(DEPARTURE('DTM*139*20260310*0930*ED')), 'utc'))[1]).toBe('EST 2026-03-10T13:30:00.000Z');
  });

  it('an IFTSTA DTM 203 after a LOC is the local time of that LOC; the status time that of LOC+175, before or after it', () => {
    const body = [
      'STS+1+VD',
      'RFF+BM:MAEUTZ1',
      'DTM+334:202603050930:203',
      'LOC+175+CNSHA:139:6',
      'TDT+20+610W+1+++++9321483:146:11:MAERSK ALPHA',
      'LOC+9+CNSHA:139:6',
      'DTM+186:202603050930:203',
      'LOC+11+BRSSZ:139:6',
      'DTM+132:202604010600:203',
    ].join('\n');
    expect(times(mapped('iftsta', iftsta(body)))).toEqual([
      'ACT 2026-03-05T01:30:00.000Z',
      'ACT 2026-03-05T01:30:00.000Z',
      'EST 2026-04-01T09:00:00.000Z',
    ]);
    // DTM+137 (the creation time) names no location: UTC.
    const events = mapped('iftsta', iftsta(body)) as DcsaEventObject[];
    expect(events[0]!.eventCreatedDateTime).toBe('2026-03-05T08:00:00.000Z');
    expect(times(mapped('iftsta', iftsta(body), 'utc'))[2]).toBe('EST 2026-04-01T06:00:00.000Z');
  });

  it('follows Rotterdam across its changes of summer time, with a rule for the skipped and the repeated hour', () => {
    const at = (date: string, time: string) => times(mapped('x12-315', x12(GATE_IN(date, time, 'NLRTM'))))[0];
    expect(at('20260328', '1200')).toBe('ACT 2026-03-28T11:00:00.000Z');
    expect(at('20260329', '1200')).toBe('ACT 2026-03-29T10:00:00.000Z');
    // 02:30 on 29 March does not exist (02:00 -> 03:00): read with the offset before, it is 03:30 summer time.
    expect(at('20260329', '0230')).toBe('ACT 2026-03-29T01:30:00.000Z');
    // 02:30 on 25 October exists twice: the first, summer time.
    expect(at('20261025', '0230')).toBe('ACT 2026-10-25T00:30:00.000Z');
    expect(at('20261025', '0330')).toBe('ACT 2026-10-25T02:30:00.000Z');
    // Every wall time of the two change days reads back as itself through the zone (bar the skipped hour).
    for (const day of [Date.UTC(2026, 2, 29), Date.UTC(2026, 9, 25)]) {
      for (let minute = 0; minute < 24 * 60; minute += 15) {
        const wall = day + minute * 60_000;
        const instant = wallTimeToInstant(wall, 'Europe/Amsterdam');
        const back = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Amsterdam', dateStyle: 'short', timeStyle: 'medium' })
          .format(instant)
          .replace(' ', 'T');
        const skipped = day === Date.UTC(2026, 2, 29) && minute >= 120 && minute < 180;
        expect(back === new Date(wall).toISOString().slice(0, 19), `${new Date(wall).toISOString()}`).toBe(!skipped);
      }
    }
  });

  it('refuses a local time whose location has no zone that can be known, naming it', () => {
    expect(zoneOfLocation('USQ9Q').ok).toBe(false);
    expect(mapped('x12-315', x12(GATE_IN('20260305', '0930', 'USQ9Q')))).toMatch(
      /^B4@2: the time zone of USQ9Q is not known, so the local time 2026-03-05T09:30:00 cannot be placed: US has \d+ time zones and the location table has no entry for USQ9Q/,
    );
    // The same location with a zone code, or from a carrier that sends UTC, is no problem.
    expect(times(mapped('x12-315', x12(GATE_IN('20260305', '0930', 'USQ9Q')), 'utc'))).toEqual(['ACT 2026-03-05T09:30:00.000Z']);
    expect(times(mapped('x12-315', x12(DEPARTURE('DTM*139*20260306*0930*PS', 'USQ9Q')), 'utc'))[1]).toBe('EST 2026-03-06T17:30:00.000Z');
    expect(mapped('x12-315', x12(DEPARTURE('DTM*139*20260306*0930*LT', 'USQ9Q')), 'utc')).toMatch(/^DTM@6: the time zone of USQ9Q/);
  });

  it('gives every multi-zone country of the issue its ports', () => {
    const ports: Record<string, string> = {
      USLAX: 'America/Los_Angeles',
      USNYC: 'America/New_York',
      CAVAN: 'America/Vancouver',
      CAHAL: 'America/Halifax',
      MXZLO: 'America/Mexico_City',
      BRSSZ: 'America/Sao_Paulo',
      BRMAO: 'America/Manaus',
      RUVVO: 'Asia/Vladivostok',
      RULED: 'Europe/Moscow',
      AUSYD: 'Australia/Sydney',
      AUFRE: 'Australia/Perth',
      IDJKT: 'Asia/Jakarta',
      CLSAI: 'America/Santiago',
      CNSHA: 'Asia/Shanghai',
      NLRTM: 'Europe/Amsterdam',
      DEHAM: 'Europe/Berlin',
    };
    for (const [locode, zone] of Object.entries(ports)) expect(zoneOfLocation(locode), locode).toEqual({ ok: true, zone });
  });
});

describe.each(dialects)('EDI times on $name', ({ name, enabled }) => {
  let f: TestApp;
  const run = (...args: string[]): Promise<CliRun> =>
    runCaptured(args, { env: { DATABASE_URL: f.t.url, TT_BASE_URL: BASE, TT_LOG_LEVEL: 'silent' }, database: f.t.database });
  // The carrier's stored event times (a fresh database: only this test's events).
  const stored = async () => {
    const rows = await f.t.database.db.selectFrom('event').select('event_date_time').where('carrier_code', '=', CARRIER).execute();
    return rows.map((r) => new Date(r.event_date_time).toISOString()).sort();
  };

  beforeAll(async () => {
    if (!enabled) return;
    f = await createTestApp(name);
    await f.app.services.carriers.addCarrier({ carrierCode: CARRIER, name: 'Maersk' });
  });
  afterAll(async () => {
    await f?.destroy();
  });

  it.skipIf(!enabled)('keeps the carrier setting, stores local times placed and refuses an unknown location whole', async () => {
    // Added without edi_times, as a release before migration 025 inserts a carrier: read as local, the guides' default.
    expect((await f.app.services.carriers.getCarrier(CARRIER))?.ediTimes).toBe('local');
    const set = await run('carrier', 'formats', CARRIER, 'x12-315', '--times', 'utc');
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain('its times without a zone code are UTC');
    expect((await f.app.services.carriers.getCarrier(CARRIER))?.ediTimes).toBe('utc');
    // Without --times the setting stays; a bad value is a usage error that changes nothing.
    expect((await run('carrier', 'formats', CARRIER, 'x12-315,iftsta')).code).toBe(0);
    expect((await f.app.services.carriers.getCarrier(CARRIER))?.ediTimes).toBe('utc');
    const bad = await run('carrier', 'formats', CARRIER, 'x12-315', '--times', 'gmt');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--times must be local or utc/);
    expect((await run('carrier', 'formats', CARRIER, 'x12-315,iftsta', '--times', 'local')).code).toBe(0);
    expect((await f.app.services.carriers.getCarrier(CARRIER))?.ediTimes).toBe('local');

    // One interchange: a gate-in at Shanghai (stored), one at an unknown US location (refused whole, kept).
    const text = x12(GATE_IN('20260305', '0930', 'CNSHA'), '000000701').replace(
      'GE*1*701',
      ['ST*315*0002', GATE_IN('20260305', '0930', 'USQ9Q').replace('\n', '~\n'), 'SE*4*0002', 'GE*2*701'].join('~\n'),
    );
    const summary = await ingestEdi(
      f.t.database,
      { carrierCode: CARRIER, format: 'x12-315', text, times: 'local' },
      { now: () => new Date('2026-03-06T00:00:00.000Z'), rejectedEventsMax: 100 },
    );
    expect(summary).toMatchObject({ transactions: 2, transactionsRejected: 1, eventsStored: 1 });
    expect(summary.rejected).toEqual([
      expect.objectContaining({ transaction: '0002', segment: 'B4', position: 2, reason: expect.stringMatching(/time zone of USQ9Q/) }),
    ]);
    expect(await stored()).toEqual(['2026-03-05T01:30:00.000Z']);
    const kept = await run('carrier', 'rejected', 'list', '--carrier', CARRIER);
    expect(kept.stdout).toMatch(/USQ9Q/);
  });
});
