import { describe, expect, it } from 'vitest';
import { ClientSecretHasher, generateClientId, generateClientSecret } from '../src/auth/client-secrets.js';

describe('client credentials', () => {
  it('generates prefixed, unique client ids', () => {
    const ids = new Set(Array.from({ length: 100 }, generateClientId));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(id).toMatch(/^tt_[0-9a-f]{32}$/);
  });

  it('generates secrets of 256 random bits in base64url', () => {
    const secret = generateClientSecret();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(secret, 'base64url')).toHaveLength(32);
    expect(generateClientSecret()).not.toBe(secret);
  });
});

describe('ClientSecretHasher', () => {
  const hasher = new ClientSecretHasher('a-pepper-of-at-least-thirty-two-characters');

  it('accepts the right secret and refuses any other', () => {
    const secret = generateClientSecret();
    const stored = hasher.hash(secret);
    expect(hasher.verify(secret, stored)).toBe(true);
    expect(hasher.verify(generateClientSecret(), stored)).toBe(false);
    expect(hasher.verify(secret.slice(0, -1), stored)).toBe(false);
    expect(hasher.verify('', stored)).toBe(false);
  });

  it('stores a keyed hash, not the secret, and is deterministic under one pepper', () => {
    const secret = generateClientSecret();
    const stored = hasher.hash(secret);
    expect(stored).not.toContain(secret);
    expect(stored).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(hasher.hash(secret)).toBe(stored);
  });

  it('depends on the pepper: a hash made under another pepper does not verify', () => {
    const secret = generateClientSecret();
    const other = new ClientSecretHasher('another-pepper-of-at-least-thirty-two-chars');
    expect(other.hash(secret)).not.toBe(hasher.hash(secret));
    expect(other.verify(secret, hasher.hash(secret))).toBe(false);
  });

  it('fails closed on a corrupt stored hash instead of throwing', () => {
    expect(hasher.verify('anything', 'short')).toBe(false);
    expect(hasher.verify('anything', '')).toBe(false);
  });

  it('refuses an empty pepper', () => {
    expect(() => new ClientSecretHasher('')).toThrow(/pepper/);
  });
});
