import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * DCSA Track & Trace 2.2 notification signatures (the callback of
 * /v2/event-subscriptions): `Notification-Signature: sha256=<hex>`, the
 * HMAC-SHA256 of the exact request body bytes. The shared secret is DCSA's
 * `secret` (`format: byte`): a Base64 string whose decoded bytes are the
 * HMAC key, as the subscription body carries it to the carrier.
 */

/** Decoded bytes a notification secret must have at least (256 bits). */
export const MIN_SECRET_BYTES = 32;
const MAX_SECRET_CHARS = 1024;

/** A new secret: 256 random bits in standard Base64 (what goes into a DCSA subscription's `secret`). */
export function generateNotificationSecret(): string {
  return randomBytes(MIN_SECRET_BYTES).toString('base64');
}

/** The HMAC key of a Base64 secret, or an error message when it is not one (padding optional; base64url accepted). */
export function notificationKey(secret: string): { ok: true; key: Buffer } | { ok: false; message: string } {
  const text = secret.trim();
  if (text.length === 0 || text.length > MAX_SECRET_CHARS || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) {
    return { ok: false, message: 'the notification secret must be Base64 (DCSA `secret`, format byte)' };
  }
  const key = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (key.length < MIN_SECRET_BYTES) {
    return { ok: false, message: `the notification secret must decode to at least ${MIN_SECRET_BYTES} bytes, got ${key.length}` };
  }
  return { ok: true, key };
}

/** The header value a publisher sends for `body` (the fake publisher of the tests, and carriers' own checks). */
export function signNotification(body: Uint8Array | string, key: Buffer): string {
  return `sha256=${createHmac('sha256', key).update(body).digest('hex')}`;
}

export type SignatureCheck = 'valid' | 'missing' | 'malformed' | 'mismatch';

/**
 * Checks a Notification-Signature header against the body. The comparison of
 * the digests is constant-time; the header's form (`sha256=` and 64 hex
 * digits, surrounding whitespace allowed as the DCSA pattern does) is checked
 * first, and says nothing about the key.
 */
export function verifyNotification(header: string | null, body: Uint8Array, key: Buffer): SignatureCheck {
  if (header === null || header.trim() === '') return 'missing';
  const match = /^\s*sha256=([0-9a-fA-F]{64})\s*$/.exec(header);
  if (!match?.[1]) return 'malformed';
  const expected = createHmac('sha256', key).update(body).digest();
  return timingSafeEqual(Buffer.from(match[1], 'hex'), expected) ? 'valid' : 'mismatch';
}
