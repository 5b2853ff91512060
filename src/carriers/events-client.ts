import type { EventsAuth } from './carrier-config.js';
import { nextPageUrl, retryAfterMs } from './poll-plan.js';
import { BodyTooLargeError, readLimitedBytes } from '../http-messages/limited-body.js';

/**
 * HTTP to one carrier's DCSA events endpoint: a page of events with its
 * credentials (OAuth2 client credentials, with the token cached until
 * shortly before it expires, or an API key header). `fetch` is injectable
 * (tests, proxies).
 */

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

export type PageResult =
  | { ok: true; events: unknown[]; next: string | null }
  /** `retryable`: 429, 408, 5xx, no answer; `retryAfterMs` from the carrier's Retry-After. */
  | { ok: false; status: number | null; message: string; retryable: boolean; retryAfterMs: number | null };

export interface EventsClientOptions {
  fetch?: Fetch;
  now?: () => Date;
  /** Per request. Default 30 s. */
  timeoutMs?: number;
  /** Largest page body read. Default 50 MiB. */
  maxPageBytes?: number;
}

/** Refresh an OAuth2 token this long before the carrier says it expires. */
const TOKEN_MARGIN_MS = 30_000;

export class DcsaEventsClient {
  readonly #fetch: Fetch;
  readonly #now: () => Date;
  readonly #timeoutMs: number;
  readonly #maxPageBytes: number;
  readonly #tokens = new Map<string, { token: string; expiresAt: number }>();

  constructor(options: EventsClientOptions = {}) {
    this.#fetch = options.fetch ?? ((input, init) => fetch(input, init));
    this.#now = options.now ?? (() => new Date());
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#maxPageBytes = options.maxPageBytes ?? 50 * 1024 * 1024;
  }

  /**
   * GET one page. A 401 with OAuth2 drops the cached token and asks once more
   * with a new one. With `previousAuth` (the overlap after new credentials), a
   * 401 or 403 to the current credentials asks once more with the previous.
   */
  async page(carrierCode: string, eventsUrl: string, url: string, auth: EventsAuth, previousAuth?: EventsAuth): Promise<PageResult> {
    const result = await this.#withFreshToken(carrierCode, eventsUrl, url, auth);
    if (!result.ok && (result.status === 401 || result.status === 403) && previousAuth) {
      const previous = await this.#withFreshToken(`${carrierCode} previous`, eventsUrl, url, previousAuth);
      return previous.ok ? previous : result;
    }
    return result;
  }

  /** `tokenKey` names the cached OAuth2 token (a carrier's current credentials, or its previous ones). */
  async #withFreshToken(tokenKey: string, eventsUrl: string, url: string, auth: EventsAuth): Promise<PageResult> {
    let result = await this.#page(tokenKey, eventsUrl, url, auth);
    if (!result.ok && result.status === 401 && auth.kind === 'oauth2') {
      this.#tokens.delete(tokenKey);
      result = await this.#page(tokenKey, eventsUrl, url, auth);
    }
    return result;
  }

  async #page(carrierCode: string, eventsUrl: string, url: string, auth: EventsAuth): Promise<PageResult> {
    const headers: Record<string, string> = { Accept: 'application/json', 'API-Version': '2' };
    if (auth.kind === 'api-key') headers[auth.header] = auth.value;
    if (auth.kind === 'oauth2') {
      const token = await this.#token(carrierCode, auth);
      if (!token.ok) return token;
      headers.Authorization = `Bearer ${token.token}`;
    }
    let response: Response;
    try {
      response = await this.#fetch(url, { headers, signal: AbortSignal.timeout(this.#timeoutMs), redirect: 'error' });
    } catch (err) {
      return { ok: false, status: null, message: `no answer: ${describe(err)}`, retryable: true, retryAfterMs: null };
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      return {
        ok: false,
        status: response.status,
        message: `the events endpoint answered ${response.status}`,
        retryable: response.status === 429 || response.status === 408 || response.status >= 500,
        retryAfterMs: retryAfterMs(response.headers.get('retry-after'), this.#now()),
      };
    }
    let events: unknown;
    try {
      const bytes = await readLimitedBytes(response.body, this.#maxPageBytes, response.headers.get('content-length'));
      events = JSON.parse(bytes.toString('utf8'));
    } catch (err) {
      const message =
        err instanceof BodyTooLargeError ? `a page over ${this.#maxPageBytes} bytes` : `a page that is not JSON: ${describe(err)}`;
      return { ok: false, status: response.status, message, retryable: true, retryAfterMs: null };
    }
    if (!Array.isArray(events)) {
      return {
        ok: false,
        status: response.status,
        message: 'a page that is not a JSON array of events',
        retryable: true,
        retryAfterMs: null,
      };
    }
    let next: string | null;
    try {
      next = events.length === 0 ? null : nextPageUrl(eventsUrl, response.headers);
    } catch (err) {
      return { ok: false, status: response.status, message: describe(err), retryable: false, retryAfterMs: null };
    }
    return { ok: true, events, next };
  }

  async #token(
    carrierCode: string,
    auth: Extract<EventsAuth, { kind: 'oauth2' }>,
  ): Promise<{ ok: true; token: string } | Extract<PageResult, { ok: false }>> {
    const cached = this.#tokens.get(carrierCode);
    if (cached && cached.expiresAt > this.#now().getTime()) return { ok: true, token: cached.token };
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: auth.clientId, client_secret: auth.clientSecret });
    if (auth.scope) form.set('scope', auth.scope);
    let response: Response;
    try {
      response = await this.#fetch(auth.tokenUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
        body: form.toString(),
        signal: AbortSignal.timeout(this.#timeoutMs),
        redirect: 'error',
      });
    } catch (err) {
      return { ok: false, status: null, message: `token endpoint: no answer: ${describe(err)}`, retryable: true, retryAfterMs: null };
    }
    const text = await response.text().catch(() => '');
    if (!response.ok) {
      return {
        ok: false,
        status: response.status,
        message: `token endpoint answered ${response.status}`,
        retryable: response.status === 429 || response.status >= 500,
        retryAfterMs: retryAfterMs(response.headers.get('retry-after'), this.#now()),
      };
    }
    let body: { access_token?: unknown; expires_in?: unknown };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      body = {};
    }
    if (typeof body.access_token !== 'string' || body.access_token === '') {
      return { ok: false, status: response.status, message: 'token endpoint gave no access_token', retryable: false, retryAfterMs: null };
    }
    const lifetimeMs = (typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 300) * 1000;
    this.#tokens.set(carrierCode, {
      token: body.access_token,
      expiresAt: this.#now().getTime() + Math.max(0, lifetimeMs - TOKEN_MARGIN_MS),
    });
    return { ok: true, token: body.access_token };
  }
}

function describe(err: unknown): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string } };
  if (e?.name === 'TimeoutError') return 'timed out';
  return (e?.cause?.code ?? e?.message ?? String(err)).slice(0, 200);
}
