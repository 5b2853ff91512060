import type { Selectable } from 'kysely';
import { resolvePepper } from '../auth/pepper.js';
import { SecretBox } from '../auth/secret-box.js';
import type { Config } from '../config/config.js';
import type { Db } from '../db/connect.js';
import { isUniqueViolation } from '../db/dialect.js';
import type { CarrierPollStateTable, CarrierSourceTable } from '../db/tables/carrier.js';
import { CarrierInputError, checkCarrier, checkSecret, type CarrierInput, type EventsAuth } from './carrier-config.js';
import { notificationKey } from './notification-signature.js';

/**
 * Kysely operations on carrier_source (and the poll state row each carrier
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

type SourceRow = Selectable<CarrierSourceTable>;
type PollRow = Selectable<CarrierPollStateTable>;

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
      await this.#db.transaction().execute(async (trx) => {
        await trx
          .insertInto('carrier_source')
          .values({
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
          })
          .execute();
        if (valid.eventsUrl) {
          await trx
            .insertInto('carrier_poll_state')
            .values({
              carrier_code: valid.carrierCode,
              watermark: valid.pollSince ?? now,
              next_poll_at: now,
              lease_owner: null,
              lease_until: now,
              consecutive_failures: 0,
              last_polled_at: null,
              last_error: null,
              events_polled: 0,
            })
            .execute();
        }
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new CarrierInputError(`carrier ${valid.carrierCode} is already configured (see: tracking carrier list)`);
      throw err;
    }
    const carrier = await this.getCarrier(valid.carrierCode);
    if (!carrier) throw new Error(`carrier ${valid.carrierCode} vanished after it was added`);
    return { carrier, secret: valid.secret };
  }

  async listCarriers(): Promise<CarrierSource[]> {
    const [sources, states] = await Promise.all([
      this.#db.selectFrom('carrier_source').selectAll().orderBy('carrier_code').execute(),
      this.#db.selectFrom('carrier_poll_state').selectAll().execute(),
    ]);
    const byCode = new Map(states.map((s) => [s.carrier_code, s]));
    return sources.map((row) => this.#toSource(row, byCode.get(row.carrier_code)));
  }

  async getCarrier(carrierCode: string): Promise<CarrierSource | null> {
    const row = await this.#findRow(carrierCode);
    if (!row) return null;
    const state = await this.#db.selectFrom('carrier_poll_state').selectAll().where('carrier_code', '=', carrierCode).executeTakeFirst();
    return this.#toSource(row, state);
  }

  /** Stops both paths in: notifications are refused (404) and the poller skips it. False when no such carrier. */
  async disableCarrier(carrierCode: string): Promise<boolean> {
    const now = this.#now().toISOString();
    await this.#db
      .updateTable('carrier_source')
      .set({ status: 'DISABLED', disabled_at: now, updated_at: now })
      .where('carrier_code', '=', carrierCode)
      .where('status', '=', 'ACTIVE')
      .execute();
    return (await this.#findRow(carrierCode)) !== undefined;
  }

  /** A new notification secret (given, or generated); the old one stops verifying at once. Null when no such carrier. */
  async rotateSecret(carrierCode: string, secret?: string): Promise<string | null> {
    const next = checkSecret(secret);
    const now = this.#now().toISOString();
    const result = await this.#db
      .updateTable('carrier_source')
      .set({ notification_secret_ciphertext: this.#secrets.seal(next), secret_rotated_at: now, updated_at: now })
      .where('carrier_code', '=', carrierCode)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n ? next : null;
  }

  /**
   * The HMAC key that notifications of an active carrier must be signed
   * with, or null for an unknown or disabled carrier. One primary-key read:
   * a rotation or a disable applies to the next notification on every instance.
   */
  async notificationKey(carrierCode: string): Promise<Buffer | null> {
    if (!/^[A-Z]{2,4}$/.test(carrierCode)) return null;
    const row = await this.#db
      .selectFrom('carrier_source')
      .select(['carrier_code', 'status', 'notification_secret_ciphertext'])
      .where('carrier_code', '=', carrierCode)
      .executeTakeFirst();
    // Exact match (DESIGN section 10): the collation already compares bytes; this guards a legacy server default.
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
    let query = this.#db
      .selectFrom('carrier_source')
      .select(['carrier_code', 'events_url', 'events_auth_ciphertext', 'poll_interval_seconds'])
      .where('status', '=', 'ACTIVE')
      .where('events_url', 'is not', null)
      .orderBy('carrier_code');
    if (only !== undefined) query = query.where('carrier_code', '=', only);
    const rows = await query.execute();
    return rows.map((row) => ({
      carrierCode: row.carrier_code,
      eventsUrl: row.events_url as string,
      auth: row.events_auth_ciphertext ? (JSON.parse(this.#credentials.open(row.events_auth_ciphertext)) as EventsAuth) : { kind: 'none' },
      pollIntervalSeconds: row.poll_interval_seconds,
    }));
  }

  async #findRow(carrierCode: string): Promise<SourceRow | undefined> {
    return this.#db.selectFrom('carrier_source').selectAll().where('carrier_code', '=', carrierCode).executeTakeFirst();
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
