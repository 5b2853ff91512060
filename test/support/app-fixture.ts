import { READ_SCOPE, SUBSCRIBE_SCOPE } from '../../src/auth/scopes.js';
import { loadConfig, type Config } from '../../src/config/config.js';
import { createApp, type App, type AppOptions } from '../../src/app/create-app.js';
import { createLogger } from '../../src/observability/logger.js';
import { ingestBundle } from '../../src/ingest/ingest-bundle.js';
import { parseBundle } from '../../src/ingest/parse-bundle.js';
import { createTestDatabase, type TestDatabase } from './databases.js';

export const BASE = 'http://tracking.test';

export interface TestApp {
  app: App;
  t: TestDatabase;
  config: Config;
  /** Validates and ingests a raw bundle; throws on invalid input. */
  ingest(raw: unknown, now?: Date): Promise<void>;
  /** Creates a client of the account and returns a bearer token for it. */
  /** A new client of `account` and a token of it; with `subscribe`, granted and carrying track-and-trace.subscribe too. */
  tokenFor(account: string, options?: { subscribe?: boolean }): Promise<{ token: string; clientId: string; clientSecret: string }>;
  /** A request with a bearer token and an optional JSON body. */
  send(method: string, path: string, token?: string, body?: unknown): Promise<Response>;
  get(path: string, token?: string, headers?: Record<string, string>): Promise<Response>;
  graphql(query: string, variables?: Record<string, unknown>, token?: string): Promise<Response>;
  destroy(): Promise<void>;
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({ TT_BASE_URL: BASE, TT_EVALUATE_INTERVAL_SECONDS: '0', ...overrides });
}

export async function createTestApp(
  dialect: 'sqlite' | 'mysql',
  options: Partial<Omit<AppOptions, 'database'>> & { testDatabase?: TestDatabase } = {},
): Promise<TestApp> {
  const { testDatabase, ...appOptions } = options;
  const t = testDatabase ?? (await createTestDatabase(dialect));
  const config = options.config ?? testConfig();
  const app = await createApp({
    config,
    database: t.database,
    logger: createLogger('silent'),
    clientCacheTtlMs: 0,
    ...appOptions,
  });
  const fixture: TestApp = {
    app,
    t,
    config,
    async ingest(raw, now = new Date()) {
      const parsed = parseBundle(raw);
      if (!parsed.ok) throw new Error(`invalid test bundle: ${JSON.stringify(parsed.issues)}`);
      await ingestBundle(t.database, parsed.bundle, { now: () => now, thresholds: config.thresholds });
    },
    async tokenFor(account, tokenOptions = {}) {
      const creds = await app.clients.createClient({ name: `client of ${account}`, account });
      if (tokenOptions.subscribe) await app.clients.setScope(creds.client_id, SUBSCRIBE_SCOPE, true);
      const response = await app.fetch(`${BASE}/oauth/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: creds.client_id,
          client_secret: creds.client_secret,
          ...(tokenOptions.subscribe ? { scope: `${READ_SCOPE} ${SUBSCRIBE_SCOPE}` } : {}),
        }).toString(),
      });
      if (response.status !== 200) throw new Error(`token request failed: ${response.status} ${await response.text()}`);
      const body = (await response.json()) as { access_token: string };
      return { token: body.access_token, clientId: creds.client_id, clientSecret: creds.client_secret };
    },
    send(method, path, token, body) {
      return app.fetch(`${BASE}${path}`, {
        method,
        headers: {
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
          ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    },
    get(path, token, headers = {}) {
      return app.fetch(`${BASE}${path}`, {
        headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...headers },
      });
    },
    graphql(query, variables = {}, token) {
      return app.fetch(`${BASE}/graphql`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ query, variables }),
      });
    },
    async destroy() {
      await app.close();
      if (!testDatabase) await t.destroy();
    },
  };
  return fixture;
}

/** Runs delivery worker rounds until nothing is due (the tests' retries are milliseconds apart). */
export async function drainDeliveries(f: TestApp): Promise<void> {
  for (let i = 0; i < 50; i++) {
    const round = await f.app.deliveries.runOnce();
    if (round.claimed > 0) continue;
    const pending = await f.t.database.db.selectFrom('webhook_delivery').select('id').where('status', '=', 'PENDING').executeTakeFirst();
    if (!pending) return;
    await new Promise((r) => setTimeout(r, 10));
  }
}
