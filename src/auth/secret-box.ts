import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Secrets the service must be able to use again, not just compare: a webhook
 * signing secret signs every delivery, so it cannot be stored as a hash like
 * a client secret. It is stored encrypted (AES-256-GCM) under a key derived
 * from the server pepper (HKDF-SHA256), which lives outside the database in
 * production (`TT_SECRET_PEPPER`): a leaked database dump holds no usable
 * signing secret.
 *
 * @NOTE changing the pepper alone makes every sealed secret unreadable.
 * During a rotation (docs/operating.md "Rotating TT_SECRET_PEPPER") the box also opens
 * what the previous pepper sealed, and `reseal` moves it to the current one
 * (`tracking keys rewrap`).
 */
export class SecretBox {
  readonly #key: Buffer;
  readonly #previousKey: Buffer | undefined;

  constructor(pepper: string, purpose: string, previousPepper?: string) {
    this.#key = SecretBox.#derive(pepper, purpose);
    this.#previousKey = previousPepper ? SecretBox.#derive(previousPepper, purpose) : undefined;
  }

  static #derive(pepper: string, purpose: string): Buffer {
    return Buffer.from(hkdfSync('sha256', pepper, 'track-and-trace', `secret-box:${purpose}:v1`, 32));
  }

  /** `v1.IV.TAG.CIPHERTEXT`, base64url parts. */
  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), ciphertext].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
  }

  /** The plaintext, sealed under the current pepper or (during a rotation) the previous one; throws when neither. */
  open(sealed: string): string {
    try {
      return SecretBox.#open(sealed, this.#key);
    } catch (err) {
      if (!this.#previousKey) throw err;
      return SecretBox.#open(sealed, this.#previousKey);
    }
  }

  /**
   * `sealed` moved under the current pepper: the new sealed form when the
   * previous pepper sealed it, null when the current one did already.
   * Throws when neither pepper opens it.
   */
  reseal(sealed: string): string | null {
    try {
      SecretBox.#open(sealed, this.#key);
      return null;
    } catch (err) {
      if (!this.#previousKey) throw err;
      return this.seal(SecretBox.#open(sealed, this.#previousKey));
    }
  }

  static #open(sealed: string, key: Buffer): string {
    const [version, iv, tag, ciphertext] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || ciphertext === undefined) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }
}
