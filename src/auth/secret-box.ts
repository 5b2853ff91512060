import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Secrets the service must be able to use again, not just compare: a webhook
 * signing secret signs every delivery, so it cannot be stored as a hash like
 * a client secret. It is stored encrypted (AES-256-GCM) under a key derived
 * from the server pepper (HKDF-SHA256), which lives outside the database in
 * production (`TT_SECRET_PEPPER`): a leaked database dump holds no usable
 * signing secret.
 *
 * @NOTE changing the pepper makes every stored signing secret unreadable:
 * subscriptions then need a new secret (rotate them).
 */
export class SecretBox {
  readonly #key: Buffer;

  constructor(pepper: string, purpose: string) {
    this.#key = Buffer.from(hkdfSync('sha256', pepper, 'track-and-trace', `secret-box:${purpose}:v1`, 32));
  }

  /** `v1.IV.TAG.CIPHERTEXT`, base64url parts. */
  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), ciphertext].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
  }

  open(sealed: string): string {
    const [version, iv, tag, ciphertext] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || ciphertext === undefined) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }
}
