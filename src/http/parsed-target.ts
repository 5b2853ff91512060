import type { IncomingMessage } from 'node:http';

/**
 * The URL of a request as the node:http layer parsed it while checking its target (http-server.ts,
 * targetProblem), kept for the REST server (rest-server.ts), which builds the same URL from the same target
 * and Host: parsing it once per request instead of twice.
 */
const parsed = new WeakMap<IncomingMessage, URL>();

export function keepParsedTarget(req: IncomingMessage, url: URL): void {
  parsed.set(req, url);
}

/** The request's URL: the one kept for it, else parsed here (a listener mounted without the node:http layer). */
export function parsedTarget(req: IncomingMessage, base: string): URL {
  return parsed.get(req) ?? new URL(req.url ?? '/', base);
}
