import { afterEach, describe, expect, it } from 'vitest';
import { OPERATOR_INGEST_SCOPE } from '../src/auth/scopes.js';
import { ingestBundle, type IngestSummary } from '../src/ingest/ingest-bundle.js';
import { parseBundle } from '../src/ingest/parse-bundle.js';
import type { TrackingException } from '../src/domain/types.js';
import { grantAccountAccess, revokeAccountAccess } from '../src/store/access/shipment-access.js';
import { BASE, createTestApp, type TestApp } from './support/app-fixture.js';
import { dialects } from './support/databases.js';
import { at, CONTAINERS, equipmentEvent, shipmentMaster, VESSELS } from './support/event-builders.js';

/**
 * Shipment data is a statement as of a time (README "Loading data"): a
 * replayed or late bundle changes nothing, and in particular does not raise
 * or resolve an exception a second time (issue 20's FREEX case).
 */

const BOOKING = 'FREEX-1';
const BL = 'FREEXBL1';
const ACCOUNT = 'acct-freex';
const [C1] = CONTAINERS;

function shipment(freeTime: string, extra: Record<string, unknown> = {}) {
  const { references: _references, ...master } = shipmentMaster({ carrierBookingReference: BOOKING, billOfLadingNumber: BL });
  return {
    ...master,
    references: {},
    accounts: [ACCOUNT],
    containers: [{ containerNumber: C1, isoType: '45G1', references: { free_time_exp_dt: freeTime } }],
    ...extra,
  };
}

const discharge = equipmentEvent({
  type: 'DISC',
  classifier: 'ACT',
  container: C1,
  port: 'NLRTM',
  vessel: VESSELS.BRAVO,
  voyage: '611W',
  eventDateTime: at(720),
  created: at(721),
  booking: BOOKING,
});

describe.each(dialects)('statements carry their time on $name', ({ name, enabled }) => {
  let f: TestApp | undefined;
  afterEach(async () => {
    await f?.destroy();
    f = undefined;
  });

  async function ingest(raw: unknown, now: string): Promise<IngestSummary> {
    const parsed = parseBundle(raw);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    return ingestBundle(f!.t.database, parsed.bundle, { now: () => new Date(now) });
  }

  /** Everything a client could see or be sent: the shipment row, its snapshot, its exceptions, the change log and outbox. */
  async function state() {
    const db = f!.t.database.db;
    return {
      shipment: await db.selectFrom('shipment').select(['version', 'master_json', 'etd', 'eta', 'stated_at']).execute(),
      containers: await db.selectFrom('shipment_container').select(['container_number', 'master_json']).execute(),
      snapshots: await db.selectFrom('shipment_snapshot').selectAll().execute(),
      exceptions: await db
        .selectFrom('tracking_exception')
        .select(['exception_id', 'status', 'body_json'])
        .orderBy('exception_id')
        .execute(),
      changes: await db.selectFrom('change_log').select(['id', 'trigger_type', 'exception_id']).orderBy('id').execute(),
    };
  }

  async function served(token: string): Promise<TrackingException[]> {
    const response = await f!.get(`/v2/shipments?billOfLadingNumber=${BL}`, token);
    expect(response.status).toBe(200);
    return ((await response.json()) as { shipmentTracking: { exceptions: TrackingException[] } }).shipmentTracking.exceptions;
  }

  it.skipIf(!enabled)('FREEX: replaying both bundles in their order after a free-time extension changes nothing', async () => {
    f = await createTestApp(name);
    const { token } = await f.tokenFor(ACCOUNT);
    const bundle1 = { carrierCode: 'MAEU', shipments: [shipment(at(800))], events: [discharge] };
    const bundle2 = { carrierCode: 'MAEU', shipments: [shipment(at(1040))] };
    await ingest(bundle1, at(760));
    const [risk] = await served(token);
    expect(risk).toMatchObject({ exceptionType: 'DEMURRAGE_RISK', status: 'DETECTED' });
    await ingest(bundle2, at(770));
    const resolved = await served(token);
    expect(resolved).toEqual([
      expect.objectContaining({ exceptionID: risk?.exceptionID, status: 'RESOLVED', resolutionType: 'DATA_CORRECTED' }),
    ]);
    const before = await state();

    // An operator restores the files and ingests them again, in their order, later.
    expect(await ingest(bundle1, at(780))).toMatchObject({ shipmentsOutdated: 1, shipmentsUpdated: 0, shipmentsRefreshed: 0 });
    expect(await ingest(bundle2, at(790))).toMatchObject({ shipmentsOutdated: 1, shipmentsRefreshed: 0, exceptionTransitions: [] });
    expect(await state()).toEqual(before);
    expect(await served(token)).toEqual(resolved);
  });

  it.skipIf(!enabled)('timed bundles: an older generatedDateTime is ignored, whatever the order they arrive in', async () => {
    f = await createTestApp(name);
    const { token } = await f.tokenFor(ACCOUNT);
    const older = { carrierCode: 'MAEU', generatedDateTime: at(750), shipments: [shipment(at(800))], events: [discharge] };
    const newer = { carrierCode: 'MAEU', generatedDateTime: at(755), shipments: [shipment(at(1040))] };
    // The newer export arrives first; the older one, arriving late, must not bring the old free time back.
    await ingest(newer, at(760));
    expect(await ingest(older, at(765))).toMatchObject({ shipmentsOutdated: 1, eventsStored: 1, exceptionTransitions: [] });
    expect(await served(token)).toEqual([]);
    const container = await f.t.database.db.selectFrom('shipment_container').select('master_json').executeTakeFirstOrThrow();
    expect(JSON.parse(container.master_json)).toMatchObject({ references: { free_time_exp_dt: at(1040) } });
    const row = await f.t.database.db.selectFrom('shipment').select('stated_at').executeTakeFirstOrThrow();
    expect(row.stated_at).toBe(at(755));

    // A newer statement applies: back to the short free time, as of its own time.
    const latest = { carrierCode: 'MAEU', generatedDateTime: at(761), shipments: [shipment(at(800))] };
    expect(await ingest(latest, at(766))).toMatchObject({ shipmentsUpdated: 1, shipmentsOutdated: 0 });
    expect(await served(token)).toEqual([expect.objectContaining({ exceptionType: 'DEMURRAGE_RISK', status: 'DETECTED' })]);
  });

  it.skipIf(!enabled)("a shipment's updatedDateTime overrides its bundle's generatedDateTime", async () => {
    f = await createTestApp(name);
    const other = { ...shipment(at(900)), carrierBookingReference: 'FREEX-2', billOfLadingNumber: 'FREEXBL2' };
    await ingest({ carrierCode: 'MAEU', generatedDateTime: at(700), shipments: [shipment(at(1040)), other] }, at(760));
    const summary = await ingest(
      {
        carrierCode: 'MAEU',
        generatedDateTime: at(710),
        shipments: [shipment(at(800), { updatedDateTime: at(690) }), { ...other, containers: [] }],
      },
      at(770),
    );
    expect(summary).toMatchObject({ shipmentsOutdated: 1, shipmentsUpdated: 1 });
    const rows = await f.t.database.db.selectFrom('shipment').select(['carrier_booking_reference', 'stated_at']).orderBy('id').execute();
    expect(rows).toEqual([
      { carrier_booking_reference: BOOKING, stated_at: at(700) },
      { carrier_booking_reference: 'FREEX-2', stated_at: at(710) },
    ]);
    // updatedDateTime is when the data was true, not shipment data: it is not stored with the master data.
    const master = await f.t.database.db.selectFrom('shipment').select('master_json').executeTakeFirstOrThrow();
    expect(master.master_json).not.toContain('updatedDateTime');
  });

  it.skipIf(!enabled)(
    'a generatedDateTime ahead of the clock counts as the ingestion time, and its replay is still recognised',
    async () => {
      f = await createTestApp(name);
      const future = { carrierCode: 'MAEU', generatedDateTime: at(5000), shipments: [shipment(at(800))] };
      await ingest(future, at(700));
      expect((await f.t.database.db.selectFrom('shipment').select('stated_at').executeTakeFirstOrThrow()).stated_at).toBe(at(700));
      // A later statement with a time of its own is not blocked by the carrier's clock running ahead.
      expect(await ingest({ carrierCode: 'MAEU', generatedDateTime: at(710), shipments: [shipment(at(1040))] }, at(720))).toMatchObject({
        shipmentsUpdated: 1,
      });
      const before = await state();
      expect(await ingest(future, at(730))).toMatchObject({ shipmentsOutdated: 1 });
      expect(await state()).toEqual(before);
    },
  );

  it.skipIf(!enabled)('a bundle without a time replayed after a timed one changes nothing; its accounts are still granted', async () => {
    f = await createTestApp(name);
    await ingest({ carrierCode: 'MAEU', shipments: [shipment(at(800))] }, at(700));
    await ingest({ carrierCode: 'MAEU', generatedDateTime: at(705), shipments: [shipment(at(1040))] }, at(710));
    const before = await state();
    const replay = { carrierCode: 'MAEU', shipments: [shipment(at(800), { accounts: [ACCOUNT, 'acct-late'] })] };
    // The same content again with one more account: the content is a replay, the account a grant.
    expect(await ingest({ carrierCode: 'MAEU', shipments: [shipment(at(800))] }, at(720))).toMatchObject({ shipmentsOutdated: 1 });
    expect(await ingest(replay, at(721))).toMatchObject({ shipmentsOutdated: 1, shipmentsUpdated: 1, shipmentsRefreshed: 0 });
    const after = await state();
    expect({ ...after, changes: after.changes.slice(0, before.changes.length) }).toEqual(before);
    // The grant is a change of that account (docs/account-feed.md), and the only one.
    expect(after.changes.slice(before.changes.length).map((c) => c.trigger_type)).toEqual(['GRANTED']);
    const accounts = await f.t.database.db.selectFrom('shipment_account').select('account_id').orderBy('account_id').execute();
    expect(accounts.map((a) => a.account_id)).toEqual([ACCOUNT, 'acct-late']);
  });

  it.skipIf(!enabled)('a revoked account is not granted again by a replay or a new statement, until an operator grants it', async () => {
    f = await createTestApp(name, { webhooks: { checkHost: async () => null } });
    const { token } = await f.tokenFor(ACCOUNT, { subscribe: true });
    const bundle = { carrierCode: 'MAEU', shipments: [shipment(at(800))], events: [discharge] };
    await ingest(bundle, at(700));
    const created = await f.send('POST', '/v2/subscriptions', token, { callbackUrl: 'http://127.0.0.1:9/hook', billOfLadingNumber: BL });
    expect(created.status).toBe(201);
    const { subscriptionID } = (await created.json()) as { subscriptionID: string };

    const key = { carrierCode: 'MAEU', carrierBookingReference: BOOKING };
    const revoked = await revokeAccountAccess(
      f.t.database.db,
      f.t.database.dialect,
      key,
      ACCOUNT,
      'customer changed forwarder',
      new Date(at(710)),
    );
    expect(revoked).toMatchObject({ hadAccess: true, subscriptionsDisabled: [subscriptionID] });
    expect((await f.get(`/v2/shipments?billOfLadingNumber=${BL}`, token)).status).toBe(404);
    const subscription = (await (await f.send('GET', `/v2/subscriptions/${subscriptionID}`, token)).json()) as Record<string, unknown>;
    expect(subscription).toMatchObject({ status: 'DISABLED', disabledReason: expect.stringContaining('customer changed forwarder') });

    await ingest(bundle, at(720));
    await ingest({ carrierCode: 'MAEU', generatedDateTime: at(730), shipments: [shipment(at(1040))] }, at(730));
    expect((await f.get(`/v2/shipments?billOfLadingNumber=${BL}`, token)).status).toBe(404);

    expect(await grantAccountAccess(f.t.database.db, f.t.database.dialect, key, ACCOUNT)).toMatchObject({ wasRevoked: true });
    expect((await f.get(`/v2/shipments?billOfLadingNumber=${BL}`, token)).status).toBe(200);
  });

  it.skipIf(!enabled)('POST /v2/operator/ingest takes generatedDateTime too: an older statement is answered as outdated', async () => {
    f = await createTestApp(name);
    const { clientId, clientSecret } = await f.tokenFor('ops');
    await f.app.clients.setScope(clientId, OPERATOR_INGEST_SCOPE, true);
    const grant = await f.app.fetch(`${BASE}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: clientSecret,
        scope: OPERATOR_INGEST_SCOPE,
      }).toString(),
    });
    expect(grant.status).toBe(200);
    const { access_token: operator } = (await grant.json()) as { access_token: string };
    const post = async (body: unknown) => {
      const response = await f!.send('POST', '/v2/operator/ingest', operator, body);
      expect(response.status).toBe(200);
      return (await response.json()) as IngestSummary;
    };
    expect(
      await post({ carrierCode: 'MAEU', generatedDateTime: '2026-04-02T10:00:00+02:00', shipments: [shipment(at(1040))] }),
    ).toMatchObject({
      shipmentsCreated: 1,
    });
    expect(await post({ carrierCode: 'MAEU', generatedDateTime: '2026-04-02T07:59:59Z', shipments: [shipment(at(800))] })).toMatchObject({
      shipmentsOutdated: 1,
      shipmentsUpdated: 0,
    });
    const invalid = await f.send('POST', '/v2/operator/ingest', operator, { generatedDateTime: '2026-04-02T10:00:00', shipments: [] });
    expect(invalid.status).toBe(400);
    expect(JSON.stringify(await invalid.json())).toContain('generatedDateTime');
  });
});
