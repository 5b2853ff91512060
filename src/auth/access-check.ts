import type { Db } from '../db/connect.js';
import { listRetiredSigningKeys } from '../store/housekeeping/service-secrets.js';
import { accountsSeeShipment } from '../store/access/shipment-access.js';
import type { ClientStore } from './client-store.js';
import { DEFAULT_CLOCK_TOLERANCE_SECONDS } from './tokens.js';

/**
 * The one answer to "may this principal still see this?" (README "Live updates"), asked by every request
 * (src/auth/request-auth.ts) and again, every half `ttlMs`, by everything that lives longer than a request
 * (live streams, src/push/live-streams.ts, asking for facts at most that old), so both see access end within
 * `ttlMs` of the change. Access ends when
 *
 * - the client is disabled or deleted (`tracking client disable`),
 * - the token expires (its `exp`, with the verifier's clock tolerance),
 * - the key that signed the token is retired (`tracking keys retire`, table retired_signing_key),
 * - the scope the thing needs is taken back (`tracking client revoke`),
 * - the account's access to the shipment is taken back (`tracking shipment revoke`).
 *
 * Everything it reads is in the database, so what one instance changes reaches every other within `ttlMs`
 * (default 5000): each fact is kept in memory at most that long (half that for a stream's question), so a
 * process asks the database at most twice per `ttlMs` per client, per shipment and account, and for the
 * retired keys, however many requests and streams ask. 0 reads the database every time (tests).
 */

/** Why access ended: what a refused request or the final event of a stream says. */
export interface AccessDenial {
  code: 'UNAUTHENTICATED' | 'FORBIDDEN';
  message: string;
}

/** What a request or stream was granted: the token's client, key, expiry and scopes. */
export interface TokenGrant {
  clientId: string;
  /** The `kid` of the key that signed the token. */
  kid: string;
  expiresAt: Date;
  /** When the token was issued (its `iat`): a client record cached before it may lack a scope granted since. */
  issuedAt?: Date;
  /** The token's scopes. */
  scopes: readonly string[];
}

/** What token() answers: why access ended, or the client and the scopes the token still has. */
export type TokenAccess = { denial: AccessDenial } | { client: ClientState; scopes: string[] };

export interface ClientState {
  accountId: string;
  active: boolean;
  /** The scopes the client holds now (an operator may take one back after its token was issued). */
  scopes: readonly string[];
}

export interface AccessCheckOptions {
  /** How long each fact is remembered, in ms; default 5000. */
  ttlMs?: number;
  now?: () => Date;
  clockToleranceSeconds?: number;
}

const MAX_CACHED = 10_000;

class TtlMap<V> {
  readonly #entries = new Map<string, { value: V; at: number }>();
  constructor(readonly ttlMs: number) {}
  /** The value, when read less than `ttlMs` ago (and less than `maxAgeMs`, when given). */
  get(key: string, now: number, maxAgeMs = Infinity): V | undefined {
    const hit = this.#entries.get(key);
    if (!hit) return undefined;
    const age = now - hit.at;
    if (age < this.ttlMs && age < maxAgeMs) return hit.value;
    if (age >= this.ttlMs) this.#entries.delete(key);
    return undefined;
  }
  set(key: string, value: V, now: number): void {
    if (this.ttlMs <= 0) return;
    if (this.#entries.size >= MAX_CACHED) this.#entries.delete(this.#entries.keys().next().value as string);
    this.#entries.delete(key);
    this.#entries.set(key, { value, at: now });
  }
  delete(key: string): void {
    this.#entries.delete(key);
  }
  /** When the entry was read (ms), or undefined. */
  readAt(key: string): number | undefined {
    return this.#entries.get(key)?.at;
  }
}

export const DENIALS = {
  disabled: { code: 'UNAUTHENTICATED', message: 'the access token belongs to a disabled or unknown client' },
  expired: { code: 'UNAUTHENTICATED', message: 'the access token has expired' },
  retiredKey: { code: 'UNAUTHENTICATED', message: 'the key that signed the access token was retired' },
  scope: (scope: string) => ({ code: 'FORBIDDEN', message: `the client no longer holds the ${scope} scope` }),
  shipment: { code: 'FORBIDDEN', message: "the account's access to the shipment was revoked" },
} as const satisfies Record<string, AccessDenial | ((scope: string) => AccessDenial)>;

export class AccessCheck {
  readonly ttlMs: number;
  readonly #clients: Pick<ClientStore, 'getClient'>;
  readonly #db: Db;
  readonly #now: () => Date;
  readonly #tolerance: number;
  readonly #clientCache: TtlMap<ClientState>;
  readonly #shipmentCache: TtlMap<boolean>;
  #retired: { kids: Set<string>; at: number } | null = null;
  #retiredLoading: Promise<Set<string>> | null = null;

  constructor(clients: Pick<ClientStore, 'getClient'>, db: Db, options: AccessCheckOptions = {}) {
    this.ttlMs = options.ttlMs ?? 5000;
    this.#clients = clients;
    this.#db = db;
    this.#now = options.now ?? (() => new Date());
    this.#tolerance = options.clockToleranceSeconds ?? DEFAULT_CLOCK_TOLERANCE_SECONDS;
    this.#clientCache = new TtlMap(this.ttlMs);
    this.#shipmentCache = new TtlMap(this.ttlMs);
  }

  /** The client's account, active state and scopes, at most `ttlMs` (and `maxAgeMs`) old. */
  async client(clientId: string, maxAgeMs?: number): Promise<ClientState> {
    const now = Date.now();
    const hit = this.#clientCache.get(clientId, now, maxAgeMs);
    if (hit) return hit;
    const row = await this.#clients.getClient(clientId);
    const state = { accountId: row?.accountId ?? '', active: row !== null && row.disabledAt === null, scopes: row?.scopes ?? [] };
    this.#clientCache.set(clientId, state, now);
    return state;
  }

  /** Forgets what this process knows of the client (the process that changed it sees the change at once). */
  forget(clientId: string): void {
    this.#clientCache.delete(clientId);
  }

  /** Forgets the retired keys read (the process that retired one sees it at once). */
  forgetRetiredKeys(): void {
    this.#retired = null;
  }

  async #retiredKids(maxAgeMs = Infinity): Promise<Set<string>> {
    const age = this.#retired ? Date.now() - this.#retired.at : Infinity;
    if (this.#retired && age < this.ttlMs && age < maxAgeMs) return this.#retired.kids;
    this.#retiredLoading ??= listRetiredSigningKeys(this.#db)
      .then((rows) => {
        const kids = new Set(rows.map((r) => r.kid));
        if (this.ttlMs > 0) this.#retired = { kids, at: Date.now() };
        return kids;
      })
      .finally(() => (this.#retiredLoading = null));
    return this.#retiredLoading;
  }

  /**
   * Whether the token still opens anything: its client active, its key not retired, itself not expired.
   * Returns the client's state with the scopes the token still has (those both issued and still held).
   * `maxAgeMs`: read again what is older than this (a stream asks with its cadence, so that it sees a change
   * within two cadences: 5 s by default).
   */
  async token(grant: TokenGrant, maxAgeMs?: number): Promise<TokenAccess> {
    let client = await this.client(grant.clientId, maxAgeMs);
    // A token issued after this process last read its client may carry a scope granted since (grant, then a new
    // token): read the client again once, rather than refuse a scope the client holds. What was read after the
    // token's issue (whole seconds: `iat` rounds down) is not read again, so a scope taken back costs no reads.
    if (this.#mayLackScope(grant, client)) client = await this.client(grant.clientId, 0);
    if (!client.active) return { denial: DENIALS.disabled };
    if (this.#expired(grant)) return { denial: DENIALS.expired };
    if ((await this.#retiredKids(maxAgeMs)).has(grant.kid)) return { denial: DENIALS.retiredKey };
    return { client, scopes: grant.scopes.filter((s) => client.scopes.includes(s)) };
  }

  /**
   * token()'s answer for a request when every fact it needs is remembered (none older than `ttlMs`), else
   * undefined (ask token()): the answer of nearly every request of a client that keeps its token, with no
   * promise. Grants only: a denial, or anything to read, is left to token(), which says why.
   */
  tokenNow(grant: TokenGrant): { client: ClientState; scopes: string[] } | undefined {
    const now = Date.now();
    const client = this.#clientCache.get(grant.clientId, now);
    if (!client || !client.active || this.#mayLackScope(grant, client) || this.#expired(grant)) return undefined;
    const retired = this.#retired;
    if (!retired || now - retired.at >= this.ttlMs || retired.kids.has(grant.kid)) return undefined;
    return { client, scopes: grant.scopes.filter((s) => client.scopes.includes(s)) };
  }

  /** Whether the client read before the token's issue lacks a scope the token carries (token(): read it again). */
  #mayLackScope(grant: TokenGrant, client: ClientState): boolean {
    const readAt = this.#clientCache.readAt(grant.clientId);
    return (
      grant.issuedAt !== undefined &&
      readAt !== undefined &&
      readAt < grant.issuedAt.getTime() + 1000 &&
      grant.scopes.some((scope) => !client.scopes.includes(scope))
    );
  }

  /** jose's rule, in whole seconds: expired once exp <= now - tolerance. */
  #expired(grant: TokenGrant): boolean {
    return grant.expiresAt.getTime() / 1000 <= Math.floor(this.#now().getTime() / 1000) - this.#tolerance;
  }

  /**
   * May the holder of `grant` still see shipment `shipmentId` with `scope`? Null when it may, else why not.
   * The question every live stream asks every half `ttlMs`.
   */
  async mayStillSee(grant: TokenGrant, scope: string, shipmentId: number, maxAgeMs?: number): Promise<AccessDenial | null> {
    const result = await this.token(grant, maxAgeMs);
    if ('denial' in result) return result.denial;
    if (!result.scopes.includes(scope)) return DENIALS.scope(scope);
    const key = `${shipmentId}\u0000${result.client.accountId}`;
    const now = Date.now();
    let sees = this.#shipmentCache.get(key, now, maxAgeMs);
    if (sees === undefined) {
      sees = await accountsSeeShipment(this.#db, shipmentId, [result.client.accountId]);
      this.#shipmentCache.set(key, sees, now);
    }
    return sees ? null : DENIALS.shipment;
  }
}
