import { READ_SCOPE } from '../../src/auth/scopes.js';
import { ensureSandboxDemoClient, seedSandboxIfEmpty } from '../../src/app/sandbox-seed.js';
import type { Logger } from '../../src/observability/logger.js';
import { createTestApp, type TestApp } from './app-fixture.js';
import type { TestDialect } from './databases.js';

/**
 * The sandbox seeded at a fixed instant, with the app's clock stopped there:
 * the sandbox's times are relative to when it is seeded, so a fixed instant
 * gives the same response bytes on every run and on every store.
 */
export const SANDBOX_SEEDED_AT = new Date('2026-11-20T12:00:00.000Z');

/** The README's sandbox lookups (section "Looking up a shipment"). */
export const SANDBOX_LOOKUPS = {
  'booking-262150001': 'carrierCode=MAEU&carrierBookingReference=262150001',
  'bl-MAEU262150002': 'billOfLadingNumber=MAEU262150002',
  'bl-MAEU262150003': 'billOfLadingNumber=MAEU262150003',
  'container-MSKU1357908': 'equipmentReference=MSKU1357908',
  'container-MSKU1357908-bl-MAEU261900004': 'equipmentReference=MSKU1357908&billOfLadingNumber=MAEU261900004',
  'bl-CMDUSHA2600451': 'billOfLadingNumber=CMDUSHA2600451',
} as const;

export interface SandboxApp extends TestApp {
  /** The sandbox demo client (account demo-account), as `tracking serve` creates it. */
  demo: { client_id: string; client_secret: string };
  /** A read token of the demo client. */
  token: string;
}

export async function createSandboxApp(dialect: TestDialect['name'], options: { logger?: Logger } = {}): Promise<SandboxApp> {
  const f = await createTestApp(dialect, { now: () => SANDBOX_SEEDED_AT, ...options });
  await seedSandboxIfEmpty(f.t.database, f.config, SANDBOX_SEEDED_AT);
  const demo = await ensureSandboxDemoClient(f.t.database, f.app.clients);
  const { access_token: token } = await f.app.tokens.issueToken({ clientId: demo.client_id, scope: READ_SCOPE });
  return Object.assign(f, { demo, token });
}
