import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/config.js';
import { DEFAULT_THRESHOLDS } from '../src/domain/thresholds.js';

const PRODUCTION = {
  TT_ENVIRONMENT: 'production',
  TT_BASE_URL: 'https://api.example.com',
  TT_SIGNING_KEY: '{"kty":"EC"}',
  TT_SECRET_PEPPER: 'p'.repeat(32),
};

describe('configuration (docs/configuration.md, Configuration)', () => {
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
    ['TT_LOG_LEVEL', 'verbose'],
    ['TT_METRICS', 'sometimes'],
    ['TT_METRICS_PORT', '70000'],
    ['TT_METRICS_PORT', '4000'],
    ['TT_METRICS_TOKEN', 'short'],
    ['TT_METRICS_TOKEN', 'has a space in it, sixteen+'],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'grpc://collector:4317'],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'not a url'],
  ])('stops on a bad %s and names it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
  });

  it('observability defaults: info logs, metrics on PORT without a token, tracing off', () => {
    expect(loadConfig({})).toMatchObject({
      logLevel: 'info',
      metrics: { enabled: true, port: undefined, token: undefined },
      tracing: { otlpEndpoint: undefined, serviceName: 'track-and-trace' },
    });
    expect(
      loadConfig({
        TT_LOG_LEVEL: 'DEBUG',
        TT_METRICS_PORT: '9464',
        TT_METRICS_TOKEN: 'x'.repeat(16),
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/',
        OTEL_SERVICE_NAME: 'tt-eu',
      }),
    ).toMatchObject({
      logLevel: 'debug',
      metrics: { enabled: true, port: 9464, token: 'x'.repeat(16) },
      tracing: { otlpEndpoint: 'http://collector:4318', serviceName: 'tt-eu' },
    });
  });
});
