import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_THRESHOLDS, loadConfig } from '../src/config/config.js';

const PRODUCTION = {
  TT_ENVIRONMENT: 'production',
  TT_BASE_URL: 'https://api.example.com',
  TT_SIGNING_KEY: '{"kty":"EC"}',
  TT_SECRET_PEPPER: 'p'.repeat(32),
};

describe('configuration (DESIGN section 2)', () => {
  it('starts a sandbox with no configuration at all, on the embedded store', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 4000,
      environment: 'sandbox',
      databaseUrl: undefined,
      baseUrl: 'http://localhost:4000',
      graphiql: true,
      thresholds: DEFAULT_THRESHOLDS,
    });
  });

  it('requires keys, pepper and base address in production, and serves no GraphiQL there by default', () => {
    expect(loadConfig(PRODUCTION).graphiql).toBe(false);
    for (const missing of ['TT_SIGNING_KEY', 'TT_SECRET_PEPPER', 'TT_BASE_URL'] as const) {
      const env: Record<string, string> = { ...PRODUCTION };
      delete env[missing];
      expect(() => loadConfig(env)).toThrow(new RegExp(missing));
    }
  });

  it.each([
    ['PORT', 'eighty'],
    ['TT_ENVIRONMENT', 'staging'],
    ['DATABASE_URL', 'postgres://x'],
    ['TT_BASE_URL', 'ftp://x'],
    ['TT_DELAY_THRESHOLD_HOURS', '-1'],
    ['TT_GRAPHIQL', 'maybe'],
  ])('stops on a bad %s and names it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
  });
});
