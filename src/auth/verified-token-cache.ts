import { DEFAULT_CLOCK_TOLERANCE_SECONDS, type TokenService, type VerifiedToken } from './tokens.js';

/**
 * Remembers access tokens that passed verification, by their exact text, so
 * a client that sends the same token on every request (as OAuth clients do
 * for the token's hour) pays for one ECDSA verification, not one per request:
 * it was about a tenth of the CPU of a cached snapshot lookup.
 *
 * Exact: a signature check is a pure function of the token and the keys, and
 * the keys do not change while the process runs. What does change is time,
 * so a remembered token is answered from memory only while it is still
 * within its validity window under the same clock and tolerance as the
 * verifier; otherwise it is forgotten and the verifier decides (and raises
 * its usual error). Tokens with a `nbf` claim are never remembered (ours
 * have none), so the only time check to repeat is `exp`.
 *
 * Bounded: the oldest entry goes when `maxEntries` is reached.
 */
export interface VerifiedTokenCache extends Pick<TokenService, 'verifyToken'> {
  /** The token's verification when it is remembered and still valid, else undefined (ask verifyToken): no promise. */
  verifiedNow(token: string): VerifiedToken | undefined;
}

export function cacheVerifiedTokens(
  verifier: Pick<TokenService, 'verifyToken'>,
  options: { now: () => Date; maxEntries?: number; clockToleranceSeconds?: number },
): VerifiedTokenCache {
  const maxEntries = options.maxEntries ?? 10_000;
  const tolerance = options.clockToleranceSeconds ?? DEFAULT_CLOCK_TOLERANCE_SECONDS;
  const verified = new Map<string, VerifiedToken>();

  function verifiedNow(token: string): VerifiedToken | undefined {
    const hit = verified.get(token);
    if (!hit) return undefined;
    // jose's rule, in whole seconds: expired once exp <= now - tolerance.
    const now = Math.floor(options.now().getTime() / 1000);
    if (hit.expiresAt.getTime() / 1000 > now - tolerance) return hit;
    verified.delete(token);
    return undefined;
  }

  return {
    verifiedNow,
    async verifyToken(token) {
      const hit = verifiedNow(token);
      if (hit) return hit;
      const result = await verifier.verifyToken(token);
      if (!hasNotBefore(token)) {
        if (verified.size >= maxEntries) verified.delete(verified.keys().next().value as string);
        verified.set(token, result);
      }
      return result;
    },
  };
}

/** Whether the (already verified) JWT's payload carries `nbf`. */
function hasNotBefore(token: string): boolean {
  const payload = token.split('.')[1] ?? '';
  try {
    return 'nbf' in (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as object);
  } catch {
    return true;
  }
}
