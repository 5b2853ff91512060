import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy between the service and its database that a test controls, to
 * play outages without touching the real server:
 * - cut(): every open connection is reset and new ones are refused (reset at once): a dead database;
 * - freeze(): connections stay open but nothing flows either way, and new
 *   ones are accepted and left hanging: a database stopped by SIGSTOP;
 * - restore(): back to normal for new connections (frozen ones resume).
 */
export class TcpProxy {
  #server: Server;
  #pairs = new Set<[Socket, Socket]>();
  #mode: 'open' | 'cut' | 'frozen' = 'open';
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {
    this.#server = createServer((client) => this.#accept(client));
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.port = (this.#server.address() as { port: number }).port;
    return this;
  }

  /** A mysql:// URL like `url`, pointing at the proxy. */
  proxiedUrl(url: string): string {
    const u = new URL(url);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }

  #accept(client: Socket): void {
    client.on('error', () => {});
    if (this.#mode === 'cut') {
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(this.targetPort, this.targetHost).on('error', () => {});
    const pair: [Socket, Socket] = [client, upstream];
    this.#pairs.add(pair);
    client.pipe(upstream);
    upstream.pipe(client);
    const end = () => {
      this.#pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    if (this.#mode === 'frozen') this.#pause(pair);
  }

  #pause([client, upstream]: [Socket, Socket]): void {
    client.unpipe(upstream);
    upstream.unpipe(client);
    client.pause();
    upstream.pause();
  }

  /** What the proxy does now: `open`, `cut` or `frozen`. */
  get mode(): 'open' | 'cut' | 'frozen' {
    return this.#mode;
  }

  cut(): void {
    this.#mode = 'cut';
    for (const [client, upstream] of this.#pairs) {
      client.resetAndDestroy();
      upstream.destroy();
    }
    this.#pairs.clear();
  }

  freeze(): void {
    this.#mode = 'frozen';
    for (const pair of this.#pairs) this.#pause(pair);
  }

  restore(): void {
    const wasFrozen = this.#mode === 'frozen';
    this.#mode = 'open';
    if (!wasFrozen) return;
    for (const [client, upstream] of this.#pairs) {
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
      upstream.resume();
    }
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
