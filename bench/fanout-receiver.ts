import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The fan-out's webhook receiver, in a process of its own (forked by
 * fanout.ts), so that reading and parsing the deliveries never delays the
 * bench's own lookup load generator, whose latencies are what it compares.
 * Answers 204 to every POST and notes when each delivery arrived; over IPC:
 * sends `{ url }` once listening, answers `count` with the number of
 * arrivals and `report` with all of them.
 */

export interface Arrival {
  /** Wall clock (ms). */
  at: number;
  deliveryId: string;
  triggerType: string;
  /** The shipment's carrier: which bundle (and commit) caused the delivery. */
  carrierCode: string;
}

const arrivals: Arrival[] = [];
const server = createServer((req, res) => {
  const parts: Buffer[] = [];
  req.on('data', (c: Buffer) => parts.push(c));
  req.on('end', () => {
    const at = Date.now();
    const deliveryId = String(req.headers['tracking-delivery-id'] ?? '');
    // Two fields read by position rather than parsing 20 KB of JSON per delivery: this process shares the
    // machine's two cores with the service, and a receiver elsewhere would cost the service nothing.
    const body = Buffer.concat(parts).toString('utf8');
    const triggerType = /"triggerType":"([A-Z_]+)"/.exec(body.slice(0, 1000))?.[1];
    const tracking = body.indexOf('"shipmentTracking":');
    const carrierCode = tracking < 0 ? undefined : /"carrierCode":"([^"]*)"/.exec(body.slice(tracking, tracking + 2000))?.[1];
    arrivals.push({ at, deliveryId, triggerType: triggerType ?? 'unparsable', carrierCode: carrierCode ?? '' });
    res.writeHead(204).end();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.send?.({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` });
});
process.on('message', (message: string) => {
  if (message === 'count') process.send?.({ count: arrivals.length });
  else if (message === 'report') process.send?.({ arrivals });
});
process.on('disconnect', () => process.exit(0));
