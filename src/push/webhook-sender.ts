import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { forbiddenAddress, type PushEnvironment } from '../domain/push/callback-url.js';

/**
 * POSTs webhook deliveries (docs/architecture.md, Push). Every connection goes through
 * a DNS lookup that keeps only the addresses the SSRF rules allow
 * (`forbiddenAddress`), so a callback host that later resolves to a private
 * or metadata address (DNS rebinding) is refused when it is used, not just
 * when the subscription was created. Connections are kept alive per host.
 */

export interface WebhookRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  /** POST (default), or HEAD: the DCSA check of a callback URL (no body). */
  method?: 'POST' | 'HEAD';
}

export interface WebhookResponse {
  /** HTTP status, or null when no answer came (refused, timeout, DNS). */
  status: number | null;
  retryAfter: string | null;
  /** What went wrong without an answer, or a short description of a non-2xx answer. */
  error: string | null;
}

export interface WebhookSenderOptions {
  environment: PushEnvironment;
  /** Whole-request timeout in ms. Default 10,000. */
  timeoutMs?: number;
  /** Concurrent connections per host. Default 16. */
  maxSocketsPerHost?: number;
}

/** Bytes of a receiver's answer read at most (it is only logged); the rest is discarded. */
const MAX_ANSWER_BYTES = 4096;

export class WebhookSender {
  readonly #timeoutMs: number;
  readonly #environment: PushEnvironment;
  readonly #http: HttpAgent;
  readonly #https: HttpsAgent;
  readonly #lookup: LookupFunction;

  constructor(options: WebhookSenderOptions) {
    this.#environment = options.environment;
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    const agentOptions = { keepAlive: true, maxSockets: options.maxSocketsPerHost ?? 16, scheduling: 'fifo' as const };
    this.#http = new HttpAgent(agentOptions);
    this.#https = new HttpsAgent(agentOptions);
    this.#lookup = safeLookup(options.environment);
  }

  async send(request: WebhookRequest): Promise<WebhookResponse> {
    const url = new URL(request.url);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    // Node connects to an IP literal without a lookup: judge it here.
    if (isIP(host) !== 0) {
      const problem = forbiddenAddress(host, this.#environment);
      if (problem) return { status: null, retryAfter: null, error: `refused: ${problem}` };
    }
    const https = url.protocol === 'https:';
    return new Promise<WebhookResponse>((resolve) => {
      let settled = false;
      const done = (response: WebhookResponse) => {
        if (settled) return;
        settled = true;
        resolve(response);
      };
      const req = (https ? httpsRequest : httpRequest)(
        url,
        {
          method: request.method ?? 'POST',
          agent: https ? this.#https : this.#http,
          lookup: this.#lookup,
          headers:
            request.method === 'HEAD' ? request.headers : { ...request.headers, 'Content-Length': String(Buffer.byteLength(request.body)) },
          signal: AbortSignal.timeout(this.#timeoutMs),
        },
        (res: IncomingMessage) => {
          let read = 0;
          let answer = '';
          res.on('data', (chunk: Buffer) => {
            if (read < MAX_ANSWER_BYTES) answer += chunk.toString('utf8', 0, Math.min(chunk.length, MAX_ANSWER_BYTES - read));
            read += chunk.length;
          });
          res.on('end', () => {
            const status = res.statusCode ?? null;
            const ok = status !== null && status >= 200 && status < 300;
            done({
              status,
              retryAfter: header(res, 'retry-after'),
              error: ok ? null : `HTTP ${status}${answer ? `: ${answer.replace(/\s+/g, ' ').slice(0, 200)}` : ''}`,
            });
          });
          res.on('error', (err) => done({ status: res.statusCode ?? null, retryAfter: null, error: describe(err) }));
        },
      );
      req.on('error', (err) => done({ status: null, retryAfter: null, error: describe(err) }));
      req.end(request.method === 'HEAD' ? undefined : request.body);
    });
  }

  close(): void {
    this.#http.destroy();
    this.#https.destroy();
  }
}

function header(res: IncomingMessage, name: string): string | null {
  const value = res.headers[name];
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}

function describe(err: Error & { code?: string }): string {
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return 'timeout: no answer in time';
  return err.code ? `${err.code}: ${err.message}` : err.message;
}

/** dns.lookup, keeping only addresses the SSRF rules allow; an error when none is left. */
export function safeLookup(environment: PushEnvironment): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const allowed = addresses.filter((a) => forbiddenAddress(a.address, environment) === null);
      if (allowed.length === 0) {
        const refused = new Error(
          `refused: ${hostname} resolves only to forbidden addresses (${addresses.map((a) => a.address).join(', ')})`,
        ) as NodeJS.ErrnoException;
        refused.code = 'EFORBIDDENADDRESS';
        return callback(refused, '', 0);
      }
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
      const first = allowed[0] as LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}

/** Resolves a callback host now and judges every address (subscription creation: a clear 400). */
export async function checkResolvedHost(hostname: string, environment: PushEnvironment): Promise<string | null> {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) return forbiddenAddress(host, environment);
  const addresses = await new Promise<LookupAddress[] | Error>((resolve) =>
    dnsLookup(host, { all: true }, (err, list) => resolve(err ?? list)),
  );
  if (addresses instanceof Error) return `${host} does not resolve`;
  for (const a of addresses) {
    const problem = forbiddenAddress(a.address, environment);
    if (problem) return problem;
  }
  return null;
}
