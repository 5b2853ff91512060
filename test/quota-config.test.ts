import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/config.js';

describe('quota configuration', () => {
  it('has defaults: quotas on, in memory, no proxy trusted', () => {
    const { quotas } = loadConfig({});
    expect(quotas).toMatchObject({
      enabled: true,
      lookups: { perMinute: 600, burst: 300 },
      subscriptions: { perMinute: 120, burst: 60 },
      tokens: { perMinute: 20, burst: 20 },
      authFailuresPerClientAddress: 10,
      authFailuresPerAddress: 50,
      authFailureWindowSeconds: 60,
      trustedProxies: undefined,
      redisUrl: undefined,
      keyPrefix: 'tt:sandbox',
    });
  });

  it('reads every variable', () => {
    const { quotas } = loadConfig({
      TT_QUOTAS: 'false',
      TT_QUOTA_LOOKUPS_PER_MINUTE: '10',
      TT_QUOTA_LOOKUPS_BURST: '0',
      TT_QUOTA_SUBSCRIPTIONS_PER_MINUTE: '5',
      TT_QUOTA_TOKENS_BURST: '3',
      TT_AUTH_FAILURES_PER_CLIENT_ADDRESS: '4',
      TT_AUTH_FAILURES_PER_ADDRESS: '9',
      TT_AUTH_FAILURE_WINDOW_SECONDS: '120',
      TT_TRUSTED_PROXIES: '10.0.0.0/8,fd00::/8',
      TT_FORWARDED_HEADER: 'Forwarded',
      REDIS_URL: 'redis://cache:6379/2',
      TT_RATE_LIMIT_PREFIX: 'tt:prod-eu',
    });
    expect(quotas).toMatchObject({
      enabled: false,
      lookups: { perMinute: 10, burst: 0 },
      subscriptions: { perMinute: 5, burst: 60 },
      tokens: { perMinute: 20, burst: 3 },
      authFailuresPerClientAddress: 4,
      authFailuresPerAddress: 9,
      authFailureWindowSeconds: 120,
      redisUrl: 'redis://cache:6379/2',
      keyPrefix: 'tt:prod-eu',
    });
    expect(quotas.trustedProxies?.header).toBe('forwarded');
    expect(quotas.trustedProxies?.list.check('fd00::5', 'ipv6')).toBe(true);
  });

  it('names the variable of a bad value', () => {
    const bad: [Record<string, string>, RegExp][] = [
      [{ TT_QUOTA_LOOKUPS_PER_MINUTE: '0' }, /^TT_QUOTA_LOOKUPS_PER_MINUTE must be an integer from 1/],
      [{ TT_QUOTA_TOKENS_BURST: '-1' }, /^TT_QUOTA_TOKENS_BURST must be an integer/],
      [{ TT_TRUSTED_PROXIES: '10.0.0.0/8, proxy.internal' }, /^TT_TRUSTED_PROXIES: "proxy.internal" is not an IP address or CIDR/],
      [{ TT_TRUSTED_PROXIES: '10.0.0.0/40' }, /^TT_TRUSTED_PROXIES: "10.0.0.0\/40": the prefix length must be 0 to 32/],
      [{ TT_FORWARDED_HEADER: 'x-real-ip' }, /^TT_FORWARDED_HEADER must be x-forwarded-for or forwarded/],
      [{ REDIS_URL: 'localhost:6379' }, /^REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/],
      [{ TT_QUOTAS: 'maybe' }, /^TT_QUOTAS must be true or false/],
    ];
    for (const [env, message] of bad) {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(message);
    }
  });
});
