import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  backoffMs,
  firstPageUrl,
  nextPageUrl,
  nextPollDelayMs,
  pollFrom,
  retryAfterMs,
  WatermarkTracker,
} from '../src/carriers/poll-plan.js';
import {
  generateNotificationSecret,
  notificationKey,
  signNotification,
  verifyNotification,
} from '../src/carriers/notification-signature.js';
import { documentationText } from './support/docs.js';

const EVENTS = 'https://api.carrier.example/track/v2/events?subscriber=acme';
const headers = (h: Record<string, string>) => new Headers(h);

describe('poll plan', () => {
  it('asks from the watermark minus the overlap, keeping the colon of the DCSA operator', () => {
    expect(pollFrom('2026-11-01T00:05:00.000Z', 300_000)).toBe('2026-11-01T00:00:00.000Z');
    expect(firstPageUrl(EVENTS, '2026-11-01T00:00:00.000Z', 100)).toBe(
      'https://api.carrier.example/track/v2/events?subscriber=acme&eventCreatedDateTime:gte=2026-11-01T00%3A00%3A00.000Z&limit=100',
    );
  });

  it('finds the next page in Next-Page-Cursor, a Next-Page cursor or a same-origin Next-Page link', () => {
    expect(nextPageUrl(EVENTS, headers({}))).toBeNull();
    expect(nextPageUrl(EVENTS, headers({ 'Next-Page-Cursor': 'abc=' }))).toBe(
      'https://api.carrier.example/track/v2/events?subscriber=acme&cursor=abc%3D',
    );
    expect(nextPageUrl(EVENTS, headers({ 'Next-Page': 'fE9mZnNldHw9NSZsaW1pdD01' }))).toContain('cursor=fE9mZnNldHw9NSZsaW1pdD01');
    expect(nextPageUrl(EVENTS, headers({ 'Next-Page': '/track/v2/events?cursor=x' }))).toBe(
      'https://api.carrier.example/track/v2/events?cursor=x',
    );
    expect(nextPageUrl(EVENTS, headers({ 'Next-Page': 'https://api.carrier.example/v2/events?page=2' }))).toBe(
      'https://api.carrier.example/v2/events?page=2',
    );
    // The poller's credentials never travel to another origin.
    expect(() => nextPageUrl(EVENTS, headers({ 'Next-Page': 'https://elsewhere.example/v2/events?cursor=x' }))).toThrow(/origin/);
  });

  it('reads Retry-After as seconds or an HTTP date, and backs off exponentially otherwise', () => {
    const now = new Date('2026-11-01T00:00:00Z');
    expect(retryAfterMs('7', now)).toBe(7000);
    expect(retryAfterMs('Sun, 01 Nov 2026 00:01:00 GMT', now)).toBe(60_000);
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs(null, now)).toBeNull();
    expect([0, 1, 2, 3, 10].map((a) => backoffMs(a))).toEqual([1000, 2000, 4000, 8000, 60_000]);
    expect(nextPollDelayMs(300_000, 0, null)).toBe(300_000);
    expect(nextPollDelayMs(300_000, 2, null)).toBe(600_000);
    expect(nextPollDelayMs(300_000, 20, null)).toBe(3_600_000);
    expect(nextPollDelayMs(30_000, 1, 7_200_000)).toBe(7_200_000);
  });

  it('moves the watermark after each page while pages come in creation order, else only at the end', () => {
    const ordered = new WatermarkTracker('2026-11-01T00:00:00.000Z');
    expect(ordered.committed(['2026-11-01T00:01:00.000Z', '2026-11-01T00:02:00.000Z'])).toBe('2026-11-01T00:02:00.000Z');
    expect(ordered.committed([])).toBe('2026-11-01T00:02:00.000Z');
    expect(ordered.committed(['2026-11-01T00:02:00.000Z', '2026-11-01T00:03:00.000Z'])).toBe('2026-11-01T00:03:00.000Z');
    expect(ordered.finished()).toBe('2026-11-01T00:03:00.000Z');

    const unordered = new WatermarkTracker('2026-11-01T00:00:00.000Z');
    expect(unordered.committed(['2026-11-01T00:05:00.000Z'])).toBe('2026-11-01T00:05:00.000Z');
    // Page 2 goes back in time: what later pages hold can no longer be bounded.
    expect(unordered.committed(['2026-11-01T00:04:00.000Z', '2026-11-01T00:09:00.000Z'])).toBeNull();
    expect(unordered.committed(['2026-11-01T00:10:00.000Z'])).toBeNull();
    expect(unordered.finished()).toBe('2026-11-01T00:10:00.000Z');

    // Never backwards: events older than the stored watermark (the overlap) leave it.
    const overlap = new WatermarkTracker('2026-11-01T00:10:00.000Z');
    expect(overlap.committed(['2026-11-01T00:06:00.000Z'])).toBeNull();
    expect(overlap.finished()).toBe('2026-11-01T00:10:00.000Z');
  });
});

describe('notification signatures', () => {
  it('verifies sha256=<hex HMAC of the exact body> under the decoded Base64 secret', () => {
    const secret = generateNotificationSecret();
    const key = notificationKey(secret);
    if (!key.ok) throw new Error(key.message);
    const body = Buffer.from('[\n  {"eventID": "x"}\n]');
    const signature = signNotification(body, key.key);
    expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verifyNotification(signature, body, key.key)).toBe('valid');
    expect(verifyNotification(` ${signature.toUpperCase().replace('SHA256', 'sha256')} `, body, key.key)).toBe('valid');
    expect(verifyNotification(signature, Buffer.from('[{"eventID": "x"}]'), key.key)).toBe('mismatch');
    expect(verifyNotification(null, body, key.key)).toBe('missing');
    expect(verifyNotification('sha512=00', body, key.key)).toBe('malformed');
  });

  it("signs as the README's snippet tells carriers to", () => {
    const readme = documentationText();
    const snippet = /<!-- notification-signature-snippet -->\s*(?:<!-- doctest -->\s*)?```js\n([\s\S]*?)```/.exec(readme)?.[1];
    if (!snippet) throw new Error('README has no notification signature snippet');
    const code = `${snippet.replace(/^import .*$/m, '')}\nreturn signature;`;
    const secret = generateNotificationSecret();
    const body = '[{"eventID":"e"}]\n';
    const fromReadme = new Function('createHmac', 'secret', 'body', code)(createHmac, secret, body) as string;
    const key = notificationKey(secret);
    if (!key.ok) throw new Error(key.message);
    expect(verifyNotification(fromReadme, Buffer.from(body), key.key)).toBe('valid');
  });

  it('takes the DCSA example secret (Base64) and refuses short or non-Base64 ones', () => {
    expect(notificationKey('MTIzNDU2Nzg5MDEyMzQ1Njc4OTAxMjM0NTY3ODkwMTIzNDM2NTc4NjIzODk3NDY5MDgyNzM0OTg3MTIzNzg2NA==').ok).toBe(true);
    expect(notificationKey('c2hvcnQ=')).toMatchObject({ ok: false, message: expect.stringContaining('at least 32 bytes') });
    expect(notificationKey('not base64!')).toMatchObject({ ok: false });
  });
});
