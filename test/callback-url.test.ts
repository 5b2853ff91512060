import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkCallbackUrl, forbiddenAddress } from '../src/domain/push/callback-url.js';
import { checkResolvedHost, WebhookSender } from '../src/push/webhook-sender.js';
import { generateSigningJwk } from '../src/auth/signing-keys.js';
import { createTestApp, testConfig, type TestApp } from './support/app-fixture.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

/**
 * Where webhooks may go (issue 11, SSRF): https only in production, no
 * address of the service's own networks, judged on every resolved address
 * at creation and again when connecting (DNS rebinding).
 */

describe('forbiddenAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'private'],
    ['0.0.0.0', 'private'],
    ['224.0.0.1', 'private'],
    ['255.255.255.255', 'private'],
    ['fd00:ec2::254', 'private'],
    ['fe80::1', 'private'],
    ['::', 'private'],
    ['::ffff:10.0.0.1', 'private'],
  ])('refuses %s in production', (address, kind) => {
    expect(forbiddenAddress(address, 'production')).toContain(kind === 'loopback' ? 'loopback' : 'private, link-local or reserved');
  });

  // IPv6 forms that embed a loopback or metadata IPv4 address (issue 27): refused in production and in the
  // sandbox alike, whatever spelling of the URL's host the URL parser accepts.
  it.each([
    ['::7f00:1', 'IPv4-compatible', '127.0.0.1', ['[::7f00:1]', '[::127.0.0.1]', '[0:0:0:0:0:0:7f00:1]', '[0000::7F00:0001]']],
    ['::ffff:0:7f00:1', 'IPv4-translated', '127.0.0.1', ['[::ffff:0:7f00:1]', '[::ffff:0:127.0.0.1]', '[0:0:0:0:ffff:0:7f00:1]']],
    ['2002:7f00:1::', '6to4', '127.0.0.1', ['[2002:7f00:1::]', '[2002:7F00:0001::]', '[2002:7f00:1:0:0:0:0:0]']],
    [
      '2001:0:4136:e378:8000:63bf:80ff:fffe',
      'Teredo',
      '127.0.0.1',
      ['[2001:0:4136:e378:8000:63bf:80ff:fffe]', '[2001::4136:E378:8000:63BF:80FF:FFFE]'],
    ],
    ['::a9fe:a9fe', 'IPv4-compatible', '169.254.169.254', ['[::a9fe:a9fe]', '[::169.254.169.254]']],
    ['2002:a9fe:a9fe::1', '6to4', '169.254.169.254', ['[2002:a9fe:a9fe::1]', '[2002:A9FE:A9FE:0:0:0:0:1]']],
    ['64:ff9b::a9fe:a9fe', 'NAT64', '169.254.169.254', ['[64:ff9b::169.254.169.254]', '[64:ff9b::a9fe:a9fe]']],
  ])('refuses %s (%s of %s) in every spelling, in production and sandbox', (address, form, embedded, hosts) => {
    for (const environment of ['production', 'sandbox'] as const) {
      expect(forbiddenAddress(address, environment)).toContain(`${form}, embedding ${embedded}`);
      for (const host of hosts) {
        const check = checkCallbackUrl(`https://${host}:8443/hook`, environment);
        expect(check, `${host} in ${environment}`).toMatchObject({ ok: false, reason: expect.stringContaining(`embedding ${embedded}`) });
      }
    }
  });

  it.each(['::ffff:169.254.169.254', '::ffff:a9fe:a9fe', '::ffff:10.0.0.1'])('judges the IPv4-mapped %s as its IPv4 address', (address) => {
    expect(forbiddenAddress(address, 'sandbox')).toMatch(/private, link-local or reserved/);
  });

  it.each(['2001:db8::1', '100::1', 'ff02::1', '::', '2001:2::1', '3fff::1'])('refuses the special-purpose IPv6 %s', (address) => {
    expect(forbiddenAddress(address, 'production')).toMatch(/private, link-local or reserved/);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.4.4'])('allows the public %s', (address) => {
    expect(forbiddenAddress(address, 'production')).toBeNull();
  });

  it('allows loopback in the sandbox, and nothing else of the private ranges', () => {
    expect(forbiddenAddress('127.0.0.1', 'sandbox')).toBeNull();
    expect(forbiddenAddress('::1', 'sandbox')).toBeNull();
    expect(forbiddenAddress('169.254.169.254', 'sandbox')).not.toBeNull();
    expect(forbiddenAddress('10.0.0.1', 'sandbox')).not.toBeNull();
  });
});

describe('checkCallbackUrl', () => {
  it('wants https in production, and allows http in the sandbox', () => {
    expect(checkCallbackUrl('https://hooks.example.com/x', 'production')).toMatchObject({ ok: true });
    expect(checkCallbackUrl('http://hooks.example.com/x', 'production')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/https/),
    });
    expect(checkCallbackUrl('http://127.0.0.1:8080/x', 'sandbox')).toMatchObject({ ok: true });
  });

  it.each([
    'https://127.0.0.1/x',
    'https://[::1]/x',
    'https://localhost/x',
    'https://api.localhost/x',
    'https://169.254.169.254/latest/meta-data',
    'https://user:pass@hooks.example.com/x',
    'https://hooks.example.com/x#frag',
    'gopher://hooks.example.com/',
    'hooks.example.com/x',
    `https://hooks.example.com/${'x'.repeat(2000)}`,
  ])('refuses %s in production', (url) => {
    expect(checkCallbackUrl(url, 'production').ok).toBe(false);
  });
});

describe('resolved addresses', () => {
  it('judges a host name by every address it resolves to', async () => {
    expect(await checkResolvedHost('localhost', 'production')).toMatch(/loopback/);
    expect(await checkResolvedHost('localhost', 'sandbox')).toBeNull();
    expect(await checkResolvedHost('no-such-host.invalid', 'production')).toMatch(/does not resolve/);
  });

  it('refuses at connect time a host that resolves to a forbidden address (DNS rebinding)', async () => {
    const receiver = await WebhookReceiver.start();
    try {
      const port = new URL(receiver.url).port;
      const production = new WebhookSender({ environment: 'production', timeoutMs: 2000 });
      const refused = await production.send({ url: `http://localhost:${port}/hook`, body: '{}', headers: {} });
      expect(refused).toMatchObject({ status: null, error: expect.stringMatching(/forbidden addresses/) });
      const literal = await production.send({ url: `http://127.0.0.1:${port}/hook`, body: '{}', headers: {} });
      expect(literal).toMatchObject({ status: null, error: expect.stringMatching(/loopback/) });
      expect(receiver.received).toHaveLength(0);
      production.close();
      const sandbox = new WebhookSender({ environment: 'sandbox', timeoutMs: 2000 });
      expect(await sandbox.send({ url: `http://localhost:${port}/hook`, body: '{}', headers: {} })).toMatchObject({ status: 200 });
      sandbox.close();
    } finally {
      await receiver.close();
    }
  });
});

describe('subscription requests in production', () => {
  let f: TestApp;
  let token: string;
  beforeAll(async () => {
    const config = testConfig({
      TT_ENVIRONMENT: 'production',
      TT_SIGNING_KEY: JSON.stringify(await generateSigningJwk()),
      TT_SECRET_PEPPER: 'p'.repeat(32),
    });
    f = await createTestApp('sqlite', { config });
    ({ token } = await f.tokenFor('acct-prod', { subscribe: true }));
    await f.ingest({
      carrierCode: 'EGLV',
      shipments: [{ carrierBookingReference: 'PROD-1', billOfLadingNumber: 'PRODBL1', carrierCode: 'EGLV', accounts: ['acct-prod'] }],
    });
  });
  afterAll(async () => f?.destroy());

  it.each([
    'http://hooks.example.com/x',
    'https://127.0.0.1/x',
    'https://localhost/x',
    'https://10.0.0.5/x',
    'https://169.254.169.254/latest',
    'https://[fd00:ec2::254]/x',
  ])('answers 400 for callbackUrl %s', async (callbackUrl) => {
    const response = await f.send('POST', '/v2/subscriptions', token, { callbackUrl, billOfLadingNumber: 'PRODBL1' });
    expect(response.status).toBe(400);
    const body = (await response.json()) as any;
    expect(body.errors[0]).toMatchObject({ property: 'callbackUrl', errorCodeText: 'invalidParameter' });
  });
});
