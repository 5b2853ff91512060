import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setWritesCompact } from '../src/store/encoding/write-forms.js';
import { createTestApp, type TestApp } from './support/app-fixture.js';
import { dialects } from './support/databases.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

/**
 * Webhook subscriptions while release 0.4.0 may still run (docs/upgrading.md, Expand, then contract): 0.4.0
 * knows no PREDICTED_ARRIVAL, GRANTED, REVOKED or SHIPMENT_MERGED, cannot list a subscription that names one, and a 0.4.0 worker
 * claiming a REVOKED delivery records it FAILED unsent. So until `tracking upgrade finish` such a subscription is
 * refused with 409, one naming no triggers gets 0.4.0's defaults, and after the finish both work as documented.
 */
const ACCOUNT = 'acct-before-finish';
const BOOKING = 'FINISH-1';
const LOOKUP = { carrierCode: 'EGLV', carrierBookingReference: BOOKING };
const PREVIOUS_DEFAULTS = ['EVENT_TRIGGER', 'EXCEPTION_DETECTED', 'EXCEPTION_RESOLVED'];

describe.each(dialects)('subscription triggers before the upgrade is finished, on $name', ({ name, enabled }) => {
  let f: TestApp;
  let token: string;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    if (!enabled) return;
    receiver = await WebhookReceiver.start();
    f = await createTestApp(name);
    ({ token } = await f.tokenFor(ACCOUNT, { subscribe: true }));
    await f.ingest({
      carrierCode: 'EGLV',
      shipments: [{ carrierBookingReference: BOOKING, carrierCode: 'EGLV', accounts: [ACCOUNT] }],
    });
  });
  afterAll(async () => {
    await f?.destroy();
    await receiver?.close();
  });

  const subscribe = async (body: Record<string, unknown>) => {
    const response = await f.send('POST', '/v2/subscriptions', token, { callbackUrl: receiver.url, ...body });
    return { status: response.status, text: await response.text() };
  };
  const triggersOf = (text: string) => (JSON.parse(text) as { triggerTypes: string[] }).triggerTypes;

  it.skipIf(!enabled)('refuses the triggers 0.4.0 does not know with a 409, and gives 0.4.0 defaults to one naming none', async () => {
    setWritesCompact(f.t.database.db, false);
    try {
      for (const [body, named] of [
        [{ triggerTypes: ['GRANTED'] }, /GRANTED can be subscribed to once the upgrade to this release is finished/],
        [{ triggerTypes: ['EVENT_TRIGGER', 'REVOKED'] }, /REVOKED can be subscribed to once/],
        [{ ...LOOKUP, triggerTypes: ['SHIPMENT_MERGED', 'EVENT_TRIGGER'] }, /SHIPMENT_MERGED can be subscribed to once/],
        // One rule for every trigger newer than 0.4.0 (NEWER_THAN_PREVIOUS_RELEASE): one 409 names all that were listed.
        [
          { ...LOOKUP, triggerTypes: ['PREDICTED_ARRIVAL', 'EVENT_TRIGGER', 'SHIPMENT_MERGED'], predictedLatenessHours: 24 },
          /PREDICTED_ARRIVAL and SHIPMENT_MERGED can be subscribed to once the upgrade to this release is finished \(tracking upgrade finish\)/,
        ],
      ] as const) {
        const { status, text } = await subscribe(body);
        expect(status, text).toBe(409);
        expect(text).toMatch(named);
        expect(text).toMatch(/"property":"triggerTypes"/);
      }
      const accountWide = await subscribe({});
      expect(accountWide.status, accountWide.text).toBe(201);
      expect(triggersOf(accountWide.text)).toEqual(PREVIOUS_DEFAULTS);
      const oneShipment = await subscribe({ ...LOOKUP });
      expect(oneShipment.status, oneShipment.text).toBe(201);
      expect(triggersOf(oneShipment.text)).toEqual(PREVIOUS_DEFAULTS);
    } finally {
      setWritesCompact(f.t.database.db, true);
    }
  });

  it.skipIf(!enabled)('takes them, and defaults to them, once the upgrade is finished', async () => {
    const named = await subscribe({ triggerTypes: ['GRANTED', 'REVOKED'] });
    expect(named.status, named.text).toBe(201);
    expect(triggersOf(named.text)).toEqual(['GRANTED', 'REVOKED']);
    const accountWide = await subscribe({});
    expect(accountWide.status, accountWide.text).toBe(201);
    expect(triggersOf(accountWide.text)).toEqual([...PREVIOUS_DEFAULTS, 'SHIPMENT_MERGED', 'GRANTED', 'REVOKED']);
    const oneShipment = await subscribe({ ...LOOKUP });
    expect(triggersOf(oneShipment.text)).toEqual([...PREVIOUS_DEFAULTS, 'SHIPMENT_MERGED']);
  });
});
