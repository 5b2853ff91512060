import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { sendNodeResponse } from '@whatwg-node/server';
import { unexpectedErrorResponse } from '../service/route-errors.js';
import { fetchRequestOf } from './node-request.js';

/** What of a Yoga instance this listener uses: its node listener and its fetch handler. */
export interface YogaHandlers {
  (req: IncomingMessage, res: ServerResponse): unknown;
  fetch(request: Request, serverContext: Record<string, unknown>): Promise<Response> | Response;
}

/**
 * Yoga on node:http. A request without a body goes to Yoga's node listener (the fetch adapter) as is. One whose
 * body the node:http layer read (http-server.ts) is handed over as a fetch Request built here (fetchRequestOf),
 * with the server context the adapter gives (`req`, `res`), and the answer is written as the adapter writes it:
 * the adapter's own conversion lists every byte of such a body first.
 */
export function yogaOnNode(yoga: YogaHandlers, onError: (error: unknown) => void): RequestListener {
  return (req, res) => {
    const body = (req as IncomingMessage & { body?: Buffer }).body;
    if (!body) return void yoga(req, res);
    void answer(req, res, body);
  };

  async function answer(req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> {
    let response: Response;
    try {
      const request = fetchRequestOf(req, res, `http://${req.headers.host || 'localhost'}${req.url ?? '/'}`, body);
      response = await yoga.fetch(request, { req, res });
    } catch (err) {
      // The client went away (the request's signal aborts when the connection closes): nobody reads an answer.
      if (res.destroyed) return;
      // Yoga answers its own errors; what escapes it gets the GraphQL family's 500 (503 in a database outage).
      onError(err);
      response = unexpectedErrorResponse('graphql', err, { correlationId: '', method: req.method ?? 'POST', url: req.url ?? '/' });
    }
    await sendNodeResponse(response, res, req, true);
  }
}
