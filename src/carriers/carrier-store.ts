import { resolvePeppers, type PepperConfig, type Peppers } from '../auth/pepper.js';
import { SecretBox } from '../auth/secret-box.js';
import type { Config } from '../config/config.js';
import type { Db } from '../db/connect.js';
import { isUniqueViolation } from '../db/dialect.js';
import {
  deleteCarrierSource,
  ensurePollState,
  findCarrierSource,
  findPollState,
  insertCarrierSource,
  listCarrierSources,
  listPollableSources,
  listPollStates,
  listSealedCarrierSecrets,
  pollNow,
  updateCarrierSource,
  type PollRow,
  type SourceRow,
} from '../store/carriers/carrier-sources.js';
import {
  CarrierInputError,
  checkCarrier,
  checkCarrierUpdate,
  checkOverlap,
  checkSecret,
  type CarrierInput,
  type CarrierUpdate,
  type EventsAuth,
} from './carrier-config.js';
import { notificationKey } from './notification-signature.js';
import type { EdiFormat } from '../domain/edi-status-map.js';
import { DEFAULT_EDI_TIMES, type EdiTimes } from '../domain/edi-times.js';

/**
 * Carriers as event sources (rows in src/store/carriers/carrier-sources.ts) (and the poll state row each carrier
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
  /** The prefixes by which tracking requests recognise it (docs/tracking-requests.md); its code when none were set. */
  referencePrefixes: string[];
  /** The EDI formats it sends besides DCSA (docs/carriers.md "EDI"); empty: DCSA only. */
  ediFormats: EdiFormat[];
  /** How its EDI times without a zone code are read (docs/carriers.md "Times"): local (the default) or utc. */
  ediTimes: EdiTimes;
  createdAt: string;
  secretRotatedAt: string;
  disabledAt: string | null;
  /** Until when the previous notification secret still verifies (after a rotation with an overlap), else null. */
  previousSecretExpiresAt: string | null;
  /** Until when the previous events credentials are still tried (after new ones with an overlap), else null. */
  previousCredentialsExpireAt: string | null;
  /** The back-off every instance honours before calling the carrier (docs/carriers.md "Back-off"), null when none holds now. */
  backoff: { until: string; reason: string | null; failuresInARow: number } | null;
  poll: {
    watermark: string;
    nextPollAt: string;
    lastPolledAt: string | null;
    lastError: string | null;
    consecutiveFailures: number;
    eventsPolled: number;
    /** The poller holding the carrier's lease (host-pid-random), or null when none does. */
    leaseOwner: string | null;
    /** Until when that lease holds unless renewed; a poller that died leaves it held until then. */
    leaseUntil: string | null;
  } | null;
}

/** A carrier the poller reads: its address and credentials, opened. */
export interface PollTarget {
  carrierCode: string;
  eventsUrl: string;
  auth: EventsAuth;
  /** During an overlap after new credentials: the previous ones, tried when the carrier refuses the new (401, 403). */
  previousAuth?: EventsAuth;
  pollIntervalSeconds: number;
}

/** How long a rotated notification secret keeps verifying unless told otherwise (as webhook signing secrets). */
export const DEFAULT_SECRET_OVERLAP_SECONDS = 86_400;

export class CarrierStore {
  readonly #db: Db;
  readonly #secrets: SecretBox;
  readonly #credentials: SecretBox;
  readonly #config: Pick<Config, 'environment'>;
  readonly #now: () => Date;

  /** `peppers`: the server pepper, or during a rotation the current and the previous one (docs/operating.md "Rotating TT_SECRET_PEPPER"). */
  constructor(db: Db, peppers: Peppers | string, config: Pick<Config, 'environment'>, now: () => Date = () => new Date()) {
    const { current, previous } = typeof peppers === 'string' ? { current: peppers, previous: undefined } : peppers;
    this.#db = db;
    this.#secrets = new SecretBox(current, 'carrier-notification-secret', previous);
    this.#credentials = new SecretBox(current, 'carrier-events-credentials', previous);
    this.#config = config;
    this.#now = now;
  }

  static async open(db: Db, config: Pick<Config, 'environment'> & PepperConfig, now?: () => Date): Promise<CarrierStore> {
    return new CarrierStore(db, await resolvePeppers(db, config), config, now);
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

  /** Sets the prefixes tracking requests recognise the carrier by (null: its code alone). False when no such carrier. */
  async setReferencePrefixes(carrierCode: string, prefixes: readonly string[] | null): Promise<boolean> {
    return updateCarrierSource(this.#db, carrierCode, {
      reference_prefixes: prefixes === null ? null : prefixes.join(','),
      updated_at: this.#now().toISOString(),
    });
  }

  /** Sets the EDI formats the carrier sends (empty: DCSA only), and how its times are read when given. False when no such carrier. */
  async setEdiFormats(carrierCode: string, formats: readonly EdiFormat[], times?: EdiTimes): Promise<boolean> {
    return updateCarrierSource(this.#db, carrierCode, {
      edi_formats: formats.length === 0 ? null : formats.join(','),
      // Local is stored as null, as a carrier added before migration 025 (or by a release without it) reads.
      ...(times === undefined ? {} : { edi_times: times === 'utc' ? 'utc' : null }),
      updated_at: this.#now().toISOString(),
    });
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

  /** Accepts its notifications again and polls it now (when it has an events URL). False when no such carrier. */
  async enableCarrier(carrierCode: string): Promise<boolean> {
    const now = this.#now().toISOString();
    const updated = await updateCarrierSource(this.#db, carrierCode, { status: 'ACTIVE', disabled_at: null, updated_at: now });
    if (updated) await pollNow(this.#db, carrierCode, now);
    return updated;
  }

  /**
   * Removes the carrier: its configuration, secrets, credentials and poll
   * state go; the events it sent stay (they are the shipments' history), and
   * the code can be added again. False when no such carrier.
   */
  async removeCarrier(carrierCode: string): Promise<boolean> {
    return deleteCarrierSource(this.#db, carrierCode);
  }

  /**
   * Changes what is given of a carrier: name, events URL (null: push only
   * from now on), credentials, poll interval. New credentials replace the
   * current ones; with `overlapSeconds` the current ones are still tried for
   * that long when the carrier refuses the new (401, 403), so a key the
   * carrier has not activated yet stalls nothing. Null when no such carrier.
   */
  async updateCarrier(carrierCode: string, input: CarrierUpdate): Promise<CarrierSource | null> {
    const row = await this.#findRow(carrierCode);
    if (!row) return null;
    const change = checkCarrierUpdate(input, { eventsUrl: row.events_url }, this.#config.environment);
    const now = this.#now();
    const at = now.toISOString();
    const set: Parameters<typeof updateCarrierSource>[2] = { updated_at: at };
    if (change.name !== undefined) set.name = change.name;
    if (change.pollIntervalSeconds !== undefined) set.poll_interval_seconds = change.pollIntervalSeconds;
    if (change.eventsUrl !== undefined) set.events_url = change.eventsUrl;
    if (change.eventsUrl === null) {
      // Push only: no credentials to keep.
      Object.assign(set, { events_auth_ciphertext: null, previous_auth_ciphertext: null, previous_auth_expires_at: null });
    } else if (change.auth !== undefined) {
      set.events_auth_ciphertext = change.auth.kind === 'none' ? null : this.#credentials.seal(JSON.stringify(change.auth));
      const keepPrevious = change.overlapSeconds > 0 && row.events_auth_ciphertext !== null;
      set.previous_auth_ciphertext = keepPrevious ? row.events_auth_ciphertext : null;
      set.previous_auth_expires_at = keepPrevious ? new Date(now.getTime() + change.overlapSeconds * 1000).toISOString() : null;
    }
    await updateCarrierSource(this.#db, carrierCode, set);
    const eventsUrl = change.eventsUrl === undefined ? row.events_url : change.eventsUrl;
    if (eventsUrl !== null) {
      await ensurePollState(this.#db, {
        carrier_code: carrierCode,
        watermark: change.pollSince ?? at,
        next_poll_at: at,
        lease_owner: null,
        // Free from the start (a lease is free once lease_until has passed).
        lease_until: new Date(0).toISOString(),
        consecutive_failures: 0,
        last_polled_at: null,
        last_error: null,
        events_polled: 0,
      });
      // A new address or new credentials are tried at once, not after the backoff of the old ones' failures.
      if (change.eventsUrl !== undefined || change.auth !== undefined) await pollNow(this.#db, carrierCode, at);
    }
    return this.getCarrier(carrierCode);
  }

  /**
   * A new notification secret (given, or generated). The previous one keeps
   * verifying for `overlapSeconds` (0: it stops at once), so notifications the
   * carrier signs before it has switched are not refused. Null when no such carrier.
   */
  async rotateSecret(carrierCode: string, secret?: string, overlapSeconds = DEFAULT_SECRET_OVERLAP_SECONDS): Promise<string | null> {
    const next = checkSecret(secret);
    const overlap = checkOverlap(overlapSeconds);
    const row = await this.#findRow(carrierCode);
    if (!row) return null;
    const now = this.#now();
    const updated = await updateCarrierSource(this.#db, carrierCode, {
      notification_secret_ciphertext: this.#secrets.seal(next),
      previous_secret_ciphertext: overlap > 0 ? row.notification_secret_ciphertext : null,
      previous_secret_expires_at: overlap > 0 ? new Date(now.getTime() + overlap * 1000).toISOString() : null,
      secret_rotated_at: now.toISOString(),
      updated_at: now.toISOString(),
    });
    return updated ? next : null;
  }

  /**
   * The HMAC key that notifications of an active carrier must be signed
   * with, or null for an unknown or disabled carrier. One primary-key read:
   * a rotation or a disable applies to the next notification on every instance.
   */
  async notificationKey(carrierCode: string): Promise<Buffer | null> {
    return (await this.notificationKeys(carrierCode))?.[0] ?? null;
  }

  /** The keys a notification of an active carrier may be signed with: the current one, and the previous during an overlap. */
  async notificationKeys(carrierCode: string): Promise<Buffer[] | null> {
    if (!/^[A-Z]{2,4}$/.test(carrierCode)) return null;
    const row = await findCarrierSource(this.#db, carrierCode);
    // Exact match (docs/architecture.md, Identity): the collation already compares bytes; this guards a legacy server default.
    if (!row || row.carrier_code !== carrierCode || row.status !== 'ACTIVE') return null;
    const keys: Buffer[] = [];
    const current = notificationKey(this.#secrets.open(row.notification_secret_ciphertext));
    if (current.ok) keys.push(current.key);
    if (row.previous_secret_ciphertext && this.#stillValid(row.previous_secret_expires_at)) {
      const previous = notificationKey(this.#secrets.open(row.previous_secret_ciphertext));
      if (previous.ok) keys.push(previous.key);
    }
    return keys.length > 0 ? keys : null;
  }

  /**
   * Moves every sealed secret and credential of the carriers under the
   * current pepper (`tracking keys rewrap`, README "Rotating
   * TT_SECRET_PEPPER"): counts what moved, what was current already, and
   * names the carriers whose values neither pepper opens.
   */
  async rewrap(): Promise<{ resealed: number; current: number; unreadable: string[] }> {
    const result = { resealed: 0, current: 0, unreadable: [] as string[] };
    for (const row of await listSealedCarrierSecrets(this.#db)) {
      const set: Parameters<typeof updateCarrierSource>[2] = {};
      const columns = [
        ['notification_secret_ciphertext', this.#secrets],
        ['previous_secret_ciphertext', this.#secrets],
        ['events_auth_ciphertext', this.#credentials],
        ['previous_auth_ciphertext', this.#credentials],
      ] as const;
      for (const [column, box] of columns) {
        const sealed = row[column];
        if (sealed === null) continue;
        try {
          const moved = box.reseal(sealed);
          if (moved === null) result.current += 1;
          else {
            set[column] = moved;
            result.resealed += 1;
          }
        } catch {
          if (!result.unreadable.includes(row.carrier_code)) result.unreadable.push(row.carrier_code);
        }
      }
      if (Object.keys(set).length > 0) await updateCarrierSource(this.#db, row.carrier_code, set);
    }
    return result;
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
      ...(row.previous_auth_ciphertext && this.#stillValid(row.previous_auth_expires_at)
        ? { previousAuth: JSON.parse(this.#credentials.open(row.previous_auth_ciphertext)) as EventsAuth }
        : {}),
      pollIntervalSeconds: row.poll_interval_seconds,
    }));
  }

  #stillValid(expiresAt: string | null): boolean {
    return expiresAt !== null && expiresAt > this.#now().toISOString();
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
      referencePrefixes: row.reference_prefixes ? row.reference_prefixes.split(',') : [row.carrier_code],
      ediFormats: row.edi_formats ? (row.edi_formats.split(',') as EdiFormat[]) : [],
      ediTimes: row.edi_times === 'utc' ? 'utc' : DEFAULT_EDI_TIMES,
      createdAt: row.created_at,
      secretRotatedAt: row.secret_rotated_at,
      disabledAt: row.disabled_at,
      previousSecretExpiresAt:
        row.previous_secret_ciphertext && this.#stillValid(row.previous_secret_expires_at) ? row.previous_secret_expires_at : null,
      previousCredentialsExpireAt:
        row.previous_auth_ciphertext && this.#stillValid(row.previous_auth_expires_at) ? row.previous_auth_expires_at : null,
      backoff: this.#stillValid(row.backoff_until)
        ? { until: row.backoff_until as string, reason: row.backoff_reason, failuresInARow: Number(row.backoff_failures) }
        : null,
      poll: state
        ? {
            watermark: state.watermark,
            nextPollAt: state.next_poll_at,
            lastPolledAt: state.last_polled_at,
            lastError: state.last_error,
            consecutiveFailures: state.consecutive_failures,
            eventsPolled: state.events_polled,
            leaseOwner: state.lease_owner,
            leaseUntil: state.lease_owner === null ? null : state.lease_until,
          }
        : null,
    };
  }
}
