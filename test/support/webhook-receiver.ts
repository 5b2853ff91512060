import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got. */
export interface Received {
  method: string;
  /** The path and query the request was sent to. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
  status: number;
}

/**
 * A real HTTP receiver on loopback for webhook tests: records every request
 * and answers with the status `answer` chooses (200 by default).
 */
type Answer = number | { status: number; headers?: Record<string, string> };

export class WebhookReceiver {
  readonly received: Received[] = [];
  /** The answer to a request (a promise of it: a slow receiver). */
  answer: (request: { body: string; n: number; method: string }) => Answer | Promise<Answer> = () => 200;
  readonly #server: Server;

  private constructor(server: Server) {
    this.#server = server;
  }

  static async start(): Promise<WebhookReceiver> {
    let receiver: WebhookReceiver | undefined;
    const server = createServer((req, res) => {
      const parts: Buffer[] = [];
      req.on('data', (c: Buffer) => parts.push(c));
      req.on('end', () => {
        const body = Buffer.concat(parts).toString('utf8');
        const r = receiver as WebhookReceiver;
        void Promise.resolve(r.answer({ body, n: r.received.length, method: req.method ?? 'GET' })).then((decided) => {
          const { status, headers } = typeof decided === 'number' ? { status: decided, headers: {} } : decided;
          let json: unknown;
          try {
            json = JSON.parse(body);
          } catch {
            json = undefined;
          }
          r.received.push({ method: req.method ?? 'GET', url: req.url ?? '', headers: req.headers, body, json, status });
          res.writeHead(status, headers ?? {});
          res.end();
        });
      });
    });
    receiver = new WebhookReceiver(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/hook`;
  }

  /** The requests answered 2xx, in order. */
  get accepted(): Received[] {
    return this.received.filter((r) => r.status >= 200 && r.status < 300);
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
