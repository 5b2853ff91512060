import { resolvePepper } from '../auth/pepper.js';
import { SecretBox } from '../auth/secret-box.js';
import type { Config } from '../config/config.js';
import type { Db } from '../db/connect.js';
import { isUniqueViolation } from '../db/dialect.js';
import {
  findCarrierSource,
  findPollState,
  insertCarrierSource,
  listCarrierSources,
  listPollableSources,
  listPollStates,
  updateCarrierSource,
  type PollRow,
  type SourceRow,
} from '../store/carrier-sources.js';
import { CarrierInputError, checkCarrier, checkSecret, type CarrierInput, type EventsAuth } from './carrier-config.js';
import { notificationKey } from './notification-signature.js';

/**
 * Carriers as event sources (rows in src/store/carrier-sources.ts) (and the poll state row each carrier
 * with an events URL gets). The notification secret and the events
 * credentials are sealed with SecretBox under the server pepper, like
 * webhook signing secrets: the service must use them again, so they cannot
 * be hashes, and a database dump alone does not reveal them.
 */

export interface CarrierSource {
  carrierCode: string;
  name: string;
  status: 'ACTIVE' | 'DISABLED';
  eventsUrl: string | null;
  /** The kind of credentials of the events URL; never the credentials. */
  eventsAuth: EventsAuth['kind'];
  pollIntervalSeconds: number;
  createdAt: string;
  secretRotatedAt: string;
  disabledAt: string | null;
  poll: {
    watermark: string;
    nextPollAt: string;
    lastPolledAt: string | null;
    lastError: string | null;
    consecutiveFailures: number;
    eventsPolled: number;
  } | null;
}

/** A carrier the poller reads: its address and credentials, opened. */
export interface PollTarget {
  carrierCode: string;
  eventsUrl: string;
  auth: EventsAuth;
  pollIntervalSeconds: number;
}

export class CarrierStore {
  readonly #db: Db;
  readonly #secrets: SecretBox;
  readonly #credentials: SecretBox;
  readonly #config: Pick<Config, 'environment'>;
  readonly #now: () => Date;

  constructor(db: Db, pepper: string, config: Pick<Config, 'environment'>, now: () => Date = () => new Date()) {
    this.#db = db;
    this.#secrets = new SecretBox(pepper, 'carrier-notification-secret');
    this.#credentials = new SecretBox(pepper, 'carrier-events-credentials');
    this.#config = config;
    this.#now = now;
  }

  static async open(db: Db, config: Pick<Config, 'environment' | 'secretPepper'>, now?: () => Date): Promise<CarrierStore> {
    return new CarrierStore(db, await resolvePepper(db, config), config, now);
  }

  /** Adds a carrier; returns its notification secret (shown once). A code already configured is an input error. */
  async addCarrier(input: CarrierInput): Promise<{ carrier: CarrierSource; secret: string }> {
    const valid = checkCarrier(input, this.#config.environment);
    const now = this.#now().toISOString();
    try {
      await insertCarrierSource(
        this.#db,
        {
          carrier_code: valid.carrierCode,
          name: valid.name,
          status: 'ACTIVE',
          notification_secret_ciphertext: this.#secrets.seal(valid.secret),
          events_url: valid.eventsUrl,
          events_auth_ciphertext: valid.auth.kind === 'none' ? null : this.#credentials.seal(JSON.stringify(valid.auth)),
          poll_interval_seconds: valid.pollIntervalSeconds,
          created_at: now,
          updated_at: now,
          secret_rotated_at: now,
          disabled_at: null,
        },
        valid.eventsUrl
          ? {
              carrier_code: valid.carrierCode,
              watermark: valid.pollSince ?? now,
              next_poll_at: now,
              lease_owner: null,
              lease_until: now,
              consecutive_failures: 0,
              last_polled_at: null,
              last_error: null,
              events_polled: 0,
            }
          : null,
      );
    } catch (err) {
      if (isUniqueViolation(err))
        throw new CarrierInputError(`carrier ${valid.carrierCode} is already configured (see: tracking carrier list)`);
      throw err;
    }
    const carrier = await this.getCarrier(valid.carrierCode);
    if (!carrier) throw new Error(`carrier ${valid.carrierCode} vanished after it was added`);
    return { carrier, secret: valid.secret };
  }

  async listCarriers(): Promise<CarrierSource[]> {
    const [sources, states] = await Promise.all([listCarrierSources(this.#db), listPollStates(this.#db)]);
    const byCode = new Map(states.map((s) => [s.carrier_code, s]));
    return sources.map((row) => this.#toSource(row, byCode.get(row.carrier_code)));
  }

  async getCarrier(carrierCode: string): Promise<CarrierSource | null> {
    const row = await this.#findRow(carrierCode);
    if (!row) return null;
    const state = await findPollState(this.#db, carrierCode);
    return this.#toSource(row, state);
  }

  /** Stops both paths in: notifications are refused (404) and the poller skips it. False when no such carrier. */
  async disableCarrier(carrierCode: string): Promise<boolean> {
    const now = this.#now().toISOString();
    await updateCarrierSource(this.#db, carrierCode, { status: 'DISABLED', disabled_at: now, updated_at: now }, { onlyActive: true });
    return (await this.#findRow(carrierCode)) !== undefined;
  }

  /** A new notification secret (given, or generated); the old one stops verifying at once. Null when no such carrier. */
  async rotateSecret(carrierCode: string, secret?: string): Promise<string | null> {
    const next = checkSecret(secret);
    const now = this.#now().toISOString();
    const updated = await updateCarrierSource(this.#db, carrierCode, {
      notification_secret_ciphertext: this.#secrets.seal(next),
      secret_rotated_at: now,
      updated_at: now,
    });
    return updated ? next : null;
  }

  /**
   * The HMAC key that notifications of an active carrier must be signed
   * with, or null for an unknown or disabled carrier. One primary-key read:
   * a rotation or a disable applies to the next notification on every instance.
   */
  async notificationKey(carrierCode: string): Promise<Buffer | null> {
    if (!/^[A-Z]{2,4}$/.test(carrierCode)) return null;
    const row = await findCarrierSource(this.#db, carrierCode);
    // Exact match (docs/architecture.md, Identity): the collation already compares bytes; this guards a legacy server default.
    if (!row || row.carrier_code !== carrierCode || row.status !== 'ACTIVE') return null;
    const key = notificationKey(this.#secrets.open(row.notification_secret_ciphertext));
    return key.ok ? key.key : null;
  }

  /** Whether notifications of this carrier are accepted (HEAD of the notification URL). */
  async isActive(carrierCode: string): Promise<boolean> {
    return (await this.notificationKey(carrierCode)) !== null;
  }

  /** Active carriers with an events URL, with their credentials opened (only a code's own when `only` is given). */
  async pollTargets(only?: string): Promise<PollTarget[]> {
    const rows = await listPollableSources(this.#db, only);
    return rows.map((row) => ({
      carrierCode: row.carrier_code,
      eventsUrl: row.events_url as string,
      auth: row.events_auth_ciphertext ? (JSON.parse(this.#credentials.open(row.events_auth_ciphertext)) as EventsAuth) : { kind: 'none' },
      pollIntervalSeconds: row.poll_interval_seconds,
    }));
  }

  async #findRow(carrierCode: string): Promise<SourceRow | undefined> {
    return findCarrierSource(this.#db, carrierCode);
  }

  #toSource(row: SourceRow, state: PollRow | undefined): CarrierSource {
    let eventsAuth: EventsAuth['kind'] = 'none';
    if (row.events_auth_ciphertext) eventsAuth = (JSON.parse(this.#credentials.open(row.events_auth_ciphertext)) as EventsAuth).kind;
    return {
      carrierCode: row.carrier_code,
      name: row.name,
      status: row.status === 'ACTIVE' ? 'ACTIVE' : 'DISABLED',
      eventsUrl: row.events_url,
      eventsAuth,
      pollIntervalSeconds: row.poll_interval_seconds,
      createdAt: row.created_at,
      secretRotatedAt: row.secret_rotated_at,
      disabledAt: row.disabled_at,
      poll: state
        ? {
            watermark: state.watermark,
            nextPollAt: state.next_poll_at,
            lastPolledAt: state.last_polled_at,
            lastError: state.last_error,
            consecutiveFailures: state.consecutive_failures,
            eventsPolled: state.events_polled,
          }
        : null,
    };
  }
}
