import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../src/db/connect.js';
import { createTestDatabase, dialects, type TestDatabase } from './support/databases.js';

describe.each(dialects)('migrations on $name', ({ name, enabled }) => {
  let t: TestDatabase;
  beforeAll(async () => {
    if (enabled) t = await createTestDatabase(name);
  });
  afterAll(async () => t?.destroy());

  it.skipIf(!enabled)('creates every table and is idempotent', async () => {
    const tables = (await t.database.db.introspection.getTables()).map((x) => x.name).sort();
    expect(tables).toEqual(
      expect.arrayContaining([
        'api_client',
        'event',
        'event_reference',
        'exception_clear',
        'service_secret',
        'shipment',
        'shipment_account',
        'shipment_container',
        'shipment_event',
        'signing_key',
        'tracking_exception',
        'transmission_block',
      ]),
    );
    expect(await migrateToLatest(t.database)).toEqual([]);
  });

  it.skipIf(!enabled)('enforces one shipment per carrier code and carrier booking reference', async () => {
    const row = {
      carrier_code: 'MAEU',
      carrier_booking_reference: 'BKG1',
      master_json: '{}',
      updated_at: new Date().toISOString(),
    };
    await t.database.db.insertInto('shipment').values(row).execute();
    await expect(t.database.db.insertInto('shipment').values(row).execute()).rejects.toThrow();
    await t.database.db.insertInto('shipment').values({ ...row, carrier_code: 'CMDU' }).execute();
  });
});
