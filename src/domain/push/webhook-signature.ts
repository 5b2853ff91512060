import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The signature of a webhook delivery (docs/architecture.md, Push), in the header
 * `Tracking-Signature: t=UNIX_SECONDS,v1=HEX[,v1=HEX]`: HEX is the hex
 * HMAC-SHA256, under the subscription's signing secret, of `t.BODY` (the
 * timestamp, a dot, the exact request body). During a secret rotation's
 * overlap there is one v1 per valid secret. Receivers recompute it, compare in
 * constant time, and refuse a `t` outside their replay window (we document 5
 * minutes) so a captured delivery cannot be replayed later.
 */
export const SIGNATURE_HEADER = 'Tracking-Signature';

/** The default replay window receivers should apply, in seconds. */
export const REPLAY_WINDOW_SECONDS = 300;

export function signatureOf(secret: string, timestamp: number, body: string): string {
  // Fed in parts: joining a 20 KB body to its timestamp would copy it first.
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

/** The header value for `body` sent at `timestamp` (seconds), signed with every secret given. */
export function signatureHeader(secrets: readonly string[], timestamp: number, body: string): string {
  return [`t=${timestamp}`, ...secrets.map((s) => `v1=${signatureOf(s, timestamp, body)}`)].join(',');
}

/**
 * A receiver's check: the header names a timestamp within `toleranceSeconds`
 * of `nowSeconds` and one v1 that matches `secret`.
 */
export function verifySignature(
  header: string | null,
  secret: string,
  body: string,
  nowSeconds: number,
  toleranceSeconds = REPLAY_WINDOW_SECONDS,
): boolean {
  if (!header) return false;
  const parts = header.split(',').map((p) => p.trim().split('='));
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = Buffer.from(signatureOf(secret, t, body), 'hex');
  return parts.some(([k, v]) => {
    if (k !== 'v1' || !v || !/^[0-9a-f]{64}$/.test(v)) return false;
    return timingSafeEqual(Buffer.from(v, 'hex'), expected);
  });
}
