/**
 * A typed client of the Track & Trace REST API (docs/typescript-client.md). The request and response types are
 * generated from the service's /openapi.json (./openapi.ts, by `npm run -s client:types`); requests go through
 * openapi-fetch. It fetches and renews tokens, polls lookups with their ETag, manages webhook subscriptions and
 * verifies webhook signatures.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import createFetchClient, { type Client, type Middleware } from 'openapi-fetch';
import type { components, operations, paths } from './openapi.js';

export type { components, operations, paths };
export type Transmission = components['schemas']['Transmission'];
export type ApiError = components['schemas']['Error'];
export type SubscriptionRequest = components['schemas']['SubscriptionRequest'];
export type WebhookSubscription = components['schemas']['WebhookSubscription'];
export type WebhookSubscriptionWithSecret = components['schemas']['WebhookSubscriptionWithSecret'];
/** One lookup form of GET /v2/shipments: booking (carrierCode + carrierBookingReference), bill of lading, or container. */
export type ShipmentLookup = NonNullable<operations['lookUpShipment']['parameters']['query']>;

export interface TrackingClientOptions {
  /** The service's base address, e.g. `http://localhost:4000` (the `$BASE` of the docs). */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** Space-separated scopes; default `track-and-trace.read` (add `track-and-trace.subscribe` for subscriptions). */
  scope?: string;
  /** A token is renewed this many seconds before it expires. Default 60. */
  renewBeforeSeconds?: number;
  /** The fetch to use (tests, proxies); default the global one. */
  fetch?: typeof fetch;
  /** The clock, in milliseconds; default Date.now. */
  now?: () => number;
}

/** An answer other than the one expected: the status and the service's error body (DCSA or OAuth). */
export class TrackingApiError extends Error {
  override name = 'TrackingApiError';
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`HTTP ${status}: ${describe(body)}`);
  }
}

function describe(body: unknown): string {
  if (body && typeof body === 'object') {
    const b = body as { errors?: { errorCodeMessage?: string }[]; error_description?: string; statusCodeMessage?: string };
    return b.errors?.[0]?.errorCodeMessage ?? b.error_description ?? b.statusCodeMessage ?? JSON.stringify(body);
  }
  return String(body);
}

/** The result of a conditional lookup: the shipment when it changed, or `notModified` while it did not. */
export type LookupResult =
  { notModified: false; etag: string | undefined; transmission: Transmission } | { notModified: true; etag: string };

export class TrackingClient {
  /** The typed openapi-fetch client: every route of /openapi.json, with a valid token on each request. */
  readonly api: Client<paths>;
  private readonly options: Required<Omit<TrackingClientOptions, 'fetch'>> & { fetch: typeof fetch };
  private current: { token: string; expiresAt: number } | undefined;
  private pending: Promise<string> | undefined;

  constructor(options: TrackingClientOptions) {
    this.options = {
      scope: 'track-and-trace.read',
      renewBeforeSeconds: 60,
      now: Date.now,
      ...options,
      fetch: options.fetch ?? ((input, init) => fetch(input, init)),
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
    };
    this.api = createFetchClient<paths>({ baseUrl: this.options.baseUrl, fetch: this.options.fetch });
    const auth: Middleware = {
      onRequest: async ({ request, schemaPath }) => {
        if (schemaPath === '/oauth/token') return request;
        request.headers.set('Authorization', `Bearer ${await this.token()}`);
        return request;
      },
    };
    this.api.use(auth);
  }

  /**
   * A valid access token: the cached one until `renewBeforeSeconds` before it expires, then a new one
   * (client credentials; there is no refresh token). Concurrent callers share one request.
   */
  async token(): Promise<string> {
    const now = this.options.now();
    if (this.current && now < this.current.expiresAt - this.options.renewBeforeSeconds * 1000) return this.current.token;
    this.pending ??= this.fetchToken().finally(() => (this.pending = undefined));
    return this.pending;
  }

  /** Forgets the cached token (the next request fetches a new one), e.g. after the client's secret was rotated. */
  forgetToken(): void {
    this.current = undefined;
  }

  private async fetchToken(): Promise<string> {
    const { data, error, response } = await this.api.POST('/oauth/token', {
      body: {
        grant_type: 'client_credentials',
        client_id: this.options.clientId,
        client_secret: this.options.clientSecret,
        scope: this.options.scope,
      },
      bodySerializer: (body) => new URLSearchParams(body as Record<string, string>),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    if (!data) throw new TrackingApiError(response.status, error);
    this.current = { token: data.access_token, expiresAt: this.options.now() + data.expires_in * 1000 };
    return data.access_token;
  }

  /**
   * GET /v2/shipments. With `etag` (the tag of your last 200 for this lookup) the service answers 304 while the
   * shipment is unchanged, and this returns `{ notModified: true }` without a body. A 401 (a token revoked or
   * expired early) is retried once with a new token.
   */
  async lookup(query: ShipmentLookup, etag?: string): Promise<LookupResult> {
    for (let attempt = 0; ; attempt++) {
      const { data, error, response } = await this.api.GET('/v2/shipments', {
        params: { query, header: etag ? { 'If-None-Match': etag } : {} },
      });
      if (response.status === 304) return { notModified: true, etag: etag ?? response.headers.get('ETag') ?? '' };
      if (data) return { notModified: false, etag: response.headers.get('ETag') ?? undefined, transmission: data };
      if (response.status === 401 && attempt === 0) {
        this.forgetToken();
        continue;
      }
      throw new TrackingApiError(response.status, error);
    }
  }

  /**
   * A poller of one shipment: each `poll()` sends the last tag it saw and resolves to the new Transmission when
   * the shipment changed, or `undefined` while it did not (a 304: no body, no snapshot read on the server).
   */
  poller(query: ShipmentLookup): { poll(): Promise<Transmission | undefined>; readonly etag: string | undefined } {
    let etag: string | undefined;
    return {
      poll: async () => {
        const result = await this.lookup(query, etag);
        if (result.notModified) return undefined;
        etag = result.etag;
        return result.transmission;
      },
      get etag() {
        return etag;
      },
    };
  }

  /** Webhook subscriptions (the client's token needs the scope `track-and-trace.subscribe`). */
  readonly subscriptions = {
    /** POST /v2/subscriptions: the answer carries the signing secret, this once. */
    create: async (request: SubscriptionRequest): Promise<WebhookSubscriptionWithSecret> => {
      const { data, error, response } = await this.api.POST('/v2/subscriptions', { body: request });
      if (!data) throw new TrackingApiError(response.status, error);
      return data;
    },
    /** GET /v2/subscriptions: the client's own. */
    list: async (): Promise<WebhookSubscription[]> => {
      const { data, error, response } = await this.api.GET('/v2/subscriptions');
      if (!data) throw new TrackingApiError(response.status, error);
      return data;
    },
    /** GET /v2/subscriptions/{id}. */
    get: async (subscriptionID: string): Promise<WebhookSubscription> => {
      const { data, error, response } = await this.api.GET('/v2/subscriptions/{subscriptionID}', { params: { path: { subscriptionID } } });
      if (!data) throw new TrackingApiError(response.status, error);
      return data;
    },
    /** DELETE /v2/subscriptions/{id}: pending deliveries are given up. */
    delete: async (subscriptionID: string): Promise<void> => {
      const { error, response } = await this.api.DELETE('/v2/subscriptions/{subscriptionID}', { params: { path: { subscriptionID } } });
      if (response.status !== 204) throw new TrackingApiError(response.status, error);
    },
  };
}

/**
 * True when the raw request `body` of a webhook delivery was signed with `secret` less than `toleranceSeconds`
 * ago: `header` is its `Tracking-Signature` (`t=UNIX_SECONDS,v1=HEX[,v1=HEX]`, HEX the HMAC-SHA256 of
 * `t.body`; two `v1` during a secret rotation's overlap).
 */
export function verifyTrackingSignature(
  header: string | null | undefined,
  body: string,
  secret: string,
  toleranceSeconds = 300,
  nowSeconds = Date.now() / 1000,
): boolean {
  const parts = (header ?? '').split(',').map((part) => part.trim().split('='));
  const t = Number(parts.find(([key]) => key === 't')?.[1]);
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  return parts.some(
    ([key, value]) => key === 'v1' && /^[0-9a-f]{64}$/.test(value ?? '') && timingSafeEqual(Buffer.from(value!, 'hex'), expected),
  );
}
