import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import type { Config } from '../config/config.js';
import { RETRY_AFTER_SECONDS } from '../db/unavailable.js';
import { bodyLimitFor, matchRoute } from '../rest/route-table.js';
import { keepParsedTarget } from './parsed-target.js';
import type { Logger } from '../observability/logger.js';
import { correlationIdFor } from '../observability/request-context.js';
import { routeErrorResponse, type RouteError, type RouteFamily } from '../errors/route-errors.js';
import { VERSION } from '../domain/release.js';

/**
 * The node HTTP server in front of the fetch-style app (serve.ts), with what
 * the app cannot do itself because it only sees a parsed Request:
 *
 * - timeouts: the request line and headers within headersTimeoutMs, the whole
 *   request within requestTimeoutMs (node answers 408), so a slow client
 *   cannot hold a connection;
 * - request targets: only origin-form (`/path?query`) with a well-formed Host
 *   reach the app; absolute-form, `*` and a malformed Host are 400 here (the
 *   URL the adapter would build from them throws, which became a 500 with a
 *   stack);
 * - body limits, counted while reading (chunked bodies included) before the
 *   app sees any of it: 413 in the route's error body; a body within the
 *   limit is handed over as a Buffer (the adapter takes `req.body` as is).
 *   After a 413 the rest of the body is read and discarded for a bounded time
 *   and size before the connection closes (a lingering close, as nginx's): a
 *   socket closed with unread bytes sends a reset, and a sender still writing
 *   would lose the 413 to it;
 * - graceful shutdown (drain()).
 */

export interface HttpServerOptions {
  /** Timeouts (config.resilience.http) and every route's body limit (the route table, from config). */
  config: Pick<Config, 'resilience' | 'carriers'>;
  log: Logger['log'];
  /** Named in the /ready answer while draining, as /ready names it otherwise (use-readiness.ts). */
  dialect?: string;
}

export interface HttpServer {
  server: Server;
  listen(port: number, host: string): Promise<number>;
  /** True once drain() was called: /ready answers 503, responses carry Connection: close. */
  readonly draining: boolean;
  /**
   * Graceful shutdown (README "Shutdown"): stop accepting connections,
   * answer /ready with 503, answer every request received (in flight, or
   * arriving on an open connection) with Connection: close, so that its
   * connection ends after that answer; end a connection that stays idle for
   * a short linger. Resolves once every connection has ended, or at
   * `graceMs`, when whatever is still open is cut; with what was still in
   * flight then (0 normally).
   */
  drain(graceMs: number): Promise<{ cut: number }>;
}

/**
 * How long a keep-alive connection may stay idle once draining starts. A
 * client that sends its next request in this time gets an answer carrying
 * Connection: close; closing an idle connection at once races with a request
 * already on its way (the client sees a reset).
 */
const DRAIN_LINGER_MS = 1000;

/**
 * The lingering close after a 413 (nginx: lingering_time 30 s, lingering_timeout 5 s): what the sender still
 * writes is read and discarded, at most this long and this many bytes, then the connection is cut. The client
 * that reads its answer after writing its body gets it; one that keeps sending costs a bounded amount of reading.
 */
const REFUSAL_LINGER_MS = 5000;
const REFUSAL_LINGER_BYTES = 64 * 1024 * 1024;

/**
 * Makes the close that node starts once the refusal (Connection: close) is written a lingering one: node's
 * `destroySoon` would end and then destroy the socket with the sender's bytes unread (a TCP reset, which may
 * destroy the answer before the sender reads it). Instead the write side is ended (FIN after the answer), the
 * rest is read and discarded (node's parser keeps consuming it and drops the body), and the socket is destroyed
 * when the sender closes, or at the time or byte bound.
 */
function lingerAfterRefusal(req: IncomingMessage): void {
  const socket = req.socket;
  // Whatever the body's handler does with it now, the bytes keep flowing (and are dropped).
  req.resume();
  socket.destroySoon = function lingeringClose(this: Socket) {
    if (this.writable) this.end();
    const start = this.bytesRead;
    const cut = () => this.destroy();
    const timer = setTimeout(cut, REFUSAL_LINGER_MS);
    const watch = setInterval(() => {
      if (this.bytesRead - start > REFUSAL_LINGER_BYTES) cut();
    }, 50);
    timer.unref();
    watch.unref();
    this.once('end', cut);
    this.once('close', () => {
      clearTimeout(timer);
      clearInterval(watch);
    });
  };
}

/** A connection as the drain sees it: requests received and not yet answered, and its linger once idle. */
interface ConnectionState {
  active: number;
  linger: NodeJS.Timeout | undefined;
}

export function createHttpServer(app: RequestListener, options: HttpServerOptions): HttpServer {
  const { log } = options;
  const limits = options.config.resilience.http;
  const inFlight = new Set<ServerResponse>();
  const connections = new Map<Socket, ConnectionState>();
  let draining = false;
  let lingerMs = DRAIN_LINGER_MS;
  let allClosed: (() => void) | undefined;

  /**
   * Once draining, an idle connection ends after it stayed idle for the
   * linger: bytes of a next request that arrived meanwhile (still being
   * parsed) count as activity, so a request already sent is never cut.
   */
  const linger = (socket: Socket, state: ConnectionState) => {
    clearTimeout(state.linger);
    const readBefore = socket.bytesRead;
    state.linger = setTimeout(() => {
      state.linger = undefined;
      if (state.active > 0) return;
      if (socket.bytesRead !== readBefore) return linger(socket, state);
      socket.end();
    }, lingerMs);
  };

  // Node checks headersTimeout/requestTimeout on this interval (default 30 s, which would double the limits).
  const server = createServer({ connectionsCheckingInterval: 1000 }, (req, res) => {
    const socket = req.socket;
    const state = connections.get(socket);
    if (state) {
      state.active += 1;
      clearTimeout(state.linger);
      state.linger = undefined;
    }
    inFlight.add(res);
    res.once('close', () => {
      inFlight.delete(res);
      if (!state) return;
      state.active -= 1;
      // A response that carried Connection: close ends its connection itself; one sent before the drain began did not.
      if (draining && state.active === 0 && !socket.destroyed) linger(socket, state);
    });
    if (draining) res.setHeader('Connection', 'close');
    handle(req, res);
  });
  server.on('connection', (socket: Socket) => {
    const state: ConnectionState = { active: 0, linger: undefined };
    connections.set(socket, state);
    socket.once('close', () => {
      clearTimeout(state.linger);
      connections.delete(socket);
      if (draining && connections.size === 0) allClosed?.();
    });
    // Accepted just before the listener closed: it gets its linger like any idle one.
    if (draining) linger(socket, state);
  });
  // Node ignores a headers timeout longer than the request timeout.
  // CONNECT asks for a tunnel, which this service never opens (node would close the socket unanswered).
  server.on('connect', (_req: IncomingMessage, socket: Socket) => {
    socket.end('HTTP/1.1 405 Method Not Allowed\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  });
  server.headersTimeout = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  server.requestTimeout = limits.requestTimeoutMs;
  // Longer than typical load balancer idle timeouts, so they close first.
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const target = req.url ?? '';
    const edge = (status: number, message: string, headers: Record<string, string> = {}) =>
      refuse(req, res, familyOf(pathOf(target)), { status, message, headers }, log);

    const checked = checkTarget(target, req.headers.host);
    if (typeof checked === 'string') return void edge(400, checked);
    keepParsedTarget(req, checked);
    const path = pathOf(target);
    if (draining && path.replace(/\/+$/, '') === '/ready') {
      const body = { status: 'shutting-down', version: VERSION, ...(options.dialect ? { database: options.dialect } : {}) };
      return void writeJson(res, 503, body, { 'Cache-Control': 'no-store', 'Retry-After': String(RETRY_AFTER_SECONDS) });
    }
    if (!hasBody(req)) return void app(req, res);

    const limit = bodyLimitFor(path, options.config);
    const tooLarge = () => {
      lingerAfterRefusal(req);
      edge(413, `The request body must be at most ${limit} bytes.`, { Connection: 'close' });
    };
    if (Number(req.headers['content-length'] ?? 0) > limit) return void tooLarge();
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on('data', (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size > limit) {
        refused = true;
        chunks.length = 0;
        // Answer now; the rest is discarded as it arrives, and the connection closes after it (lingerAfterRefusal).
        tooLarge();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (refused) return;
      // @whatwg-node/server takes a Buffer in req.body as the body (the stream is consumed).
      (req as IncomingMessage & { body?: Buffer }).body = Buffer.concat(chunks);
      app(req, res);
    });
    req.on('error', () => {
      // The client went away or the request timed out (node answered 408): nothing to hand over.
    });
  }

  return {
    server,
    get draining() {
      return draining;
    },
    listen: (port, host) => listen(server, port, host),
    drain(graceMs) {
      draining = true;
      lingerMs = Math.min(DRAIN_LINGER_MS, graceMs / 2);
      for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
      for (const [socket, state] of connections) if (state.active === 0) linger(socket, state);
      return new Promise((resolve) => {
        let listening = true;
        const finish = () => {
          clearTimeout(deadline);
          clearTimeout(stopAccepting);
          allClosed = undefined;
          if (listening) NetServer.prototype.close.call(server);
          const cut = inFlight.size;
          if (cut > 0) log('warn', 'shutdown grace period over: cutting requests still in flight', { inFlight: cut });
          server.closeAllConnections();
          for (const socket of connections.keys()) socket.destroy();
          resolve({ cut });
        };
        // @NOTE Closing the listener resets the connections the kernel has
        // accepted and node not yet (a busy event loop lets them queue), and
        // http.Server#close() also closes idle keep-alive connections at once
        // (node >= 19), racing with requests already sent on them. So the
        // listener stays open for the linger, every answer saying
        // Connection: close, and then only stops accepting (net.Server#close).
        // Each connection ends after such an answer, or once it stayed idle
        // for the linger; the grace period's end cuts what is left.
        const stopAccepting = setTimeout(() => {
          listening = false;
          NetServer.prototype.close.call(server);
          if (connections.size === 0) finish();
        }, lingerMs);
        const deadline = setTimeout(finish, graceMs);
        allClosed = () => {
          if (!listening) finish();
        };
      });
    },
  };
}

function pathOf(target: string): string {
  if (!target.startsWith('/')) return '/';
  const end = target.search(/[?#]/);
  return end < 0 ? target : target.slice(0, end);
}

/** A reg-name or IPv4 host, or a bracketed IPv6 literal, with an optional port. */
const HOST = /^(?:[A-Za-z0-9._~!$&'()*+,;=%-]+|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?$/;

/**
 * Why the request target or Host cannot name a resource of this service, or
 * undefined when they can. Pure; exported for tests.
 */
export function targetProblem(target: string, host: string | undefined): string | undefined {
  const checked = checkTarget(target, host);
  return typeof checked === 'string' ? checked : undefined;
}

/** The target's URL (as the fetch adapter and the REST server build it), or why there is none. */
function checkTarget(target: string, host: string | undefined): URL | string {
  if (!target.startsWith('/') || target.startsWith('//')) {
    return 'The request target must be a path (origin-form), such as /v2/shipments.';
  }
  if (host !== undefined) {
    const match = HOST.exec(host);
    if (!match || (match[1] !== undefined && Number(match[1]) > 65535)) return 'The Host header is not a valid host name.';
  }
  try {
    return new URL(target, `http://${host || 'localhost'}`);
  } catch {
    return 'The request target is not a valid URL path.';
  }
}

function hasBody(req: IncomingMessage): boolean {
  if (req.method === 'GET' || req.method === 'HEAD') return false;
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

function refuse(
  req: IncomingMessage,
  res: ServerResponse,
  family: RouteFamily,
  e: Pick<RouteError, 'status' | 'message' | 'headers'>,
  log: Logger['log'],
): void {
  const correlationId = correlationIdFor(nodeHeaders(req));
  // Debug: a refusal is the caller's problem; an anonymous flood must not grow the logs at info.
  log('debug', 'request refused at the HTTP edge', { correlationId, status: e.status, reason: e.message });
  const target = req.url ?? '';
  const url = target.startsWith('/') && !target.startsWith('//') ? `http://edge${target}` : 'http://edge/';
  const response = routeErrorResponse(family, { ...e, correlationId, method: req.method ?? 'GET', url: safeUrl(url) });
  void response.text().then((body) => {
    if (res.headersSent || res.destroyed) return;
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(body);
  });
}

function safeUrl(url: string): string {
  try {
    return new URL(url).toString();
  } catch {
    return 'http://edge/';
  }
}

function writeJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

/** The request's headers as correlationIdFor reads them. */
function nodeHeaders(req: IncomingMessage): Headers {
  return {
    get: (name: string) => {
      const value = req.headers[name.toLowerCase()];
      return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
    },
  } as Headers;
}

export async function listen(server: Server, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  return typeof address === 'object' && address ? address.port : port;
}

/** The error body family of a path: its route's, else the DCSA body (the service's generic error shape). */
function familyOf(path: string): RouteFamily {
  return matchRoute(path)?.route.family ?? 'dcsa';
}
