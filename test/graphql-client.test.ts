import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generate } from '@graphql-codegen/cli';
import { Client, fetchExchange, subscriptionExchange } from '@urql/core';
import { cacheExchange } from '@urql/exchange-graphcache';
import { relayPagination } from '@urql/exchange-graphcache/extras';
import { createClient as createSseClient, type Client as SseClient } from 'graphql-sse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import codegenConfig from '../clients/typescript/codegen.js';
import {
  ShipmentByBookingQuery,
  ShipmentDetailsQuery,
  ShipmentsPageQuery,
  ShipmentUpdatesSubscription,
} from '../clients/typescript/src/graphql/operations.js';
import type { ShipmentsPageQuery as ShipmentsPageResult } from '../clients/typescript/src/gql/graphql.js';
import { createHttpServer, type HttpServer } from '../src/http/http-server.js';
import { createLogger } from '../src/observability/logger.js';
import { dialects } from './support/databases.js';
import { createSandboxApp, type SandboxApp } from './support/sandbox-app.js';

/**
 * The typed GraphQL client (docs/graphql-client.md): GraphQL Code Generator's client preset output is what the
 * committed schema.graphql and operations give, and a real client library, urql with Graphcache (its normalized
 * cache), runs the typed documents against the service listening on a port: two queries of one shipment share one
 * cache entry, a shipmentUpdates event over SSE (graphql-sse) changes it, and relayPagination pages a connection to
 * its end with every shipment once.
 */
const ROOT = fileURLToPath(new URL('../', import.meta.url));

describe('clients/typescript/src/gql/', () => {
  it('is what the client preset generates from schema.graphql and the operations (npm run client:graphql)', async () => {
    const outputs = await generate({ ...codegenConfig, cwd: ROOT }, false);
    expect(outputs.length).toBeGreaterThan(0);
    for (const { filename, content } of outputs) {
      expect(readFileSync(new URL(filename, `file://${ROOT}`), 'utf8'), filename).toBe(content);
    }
  });
});

const DEMO_ACCOUNT = 'demo-account';
const BOOKING = 'URQL-1';
const BL = 'URQLBL1';

const arrival = (n: number, classifier: 'PLN' | 'EST', at: string) => ({
  eventID: `0a1c0000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  eventType: 'TRANSPORT',
  eventClassifierCode: classifier,
  eventDateTime: at,
  eventCreatedDateTime: `2026-11-1${n}T00:00:00Z`,
  transportEventTypeCode: 'ARRI',
  documentReferences: [{ documentReferenceType: 'BKG', documentReferenceValue: BOOKING }],
  transportCall: {
    transportCallID: 'TC-URQL',
    modeOfTransport: 'VESSEL',
    UNLocationCode: 'NLRTM',
    vessel: { vesselName: 'EVER GIVEN', vesselIMONumber: '9811000' },
  },
});

/** Types without an identity of their own: kept inside their parent (Graphcache warns about them otherwise). */
const embedded = () => null;
const KEYS = Object.fromEntries(
  ['Transmission', 'TransmissionHeader', 'ShipmentTrackingConnection', 'ShipmentTrackingEdge', 'PageInfo'].map((t) => [t, embedded]),
);

describe.each(dialects)('urql with Graphcache against the service on a port, on $name', ({ name, enabled }) => {
  let f: SandboxApp;
  let http: HttpServer;
  let url: string;
  let sse: SseClient;
  let client: Client;

  beforeAll(async () => {
    if (!enabled) return;
    f = await createSandboxApp(name);
    http = createHttpServer(f.app.listener, { config: f.config, log: createLogger('silent').log });
    url = `http://127.0.0.1:${await http.listen(0, '127.0.0.1')}/graphql`;
    await f.ingest({
      carrierCode: 'EGLV',
      shipments: [
        {
          carrierBookingReference: BOOKING,
          billOfLadingNumber: BL,
          carrierCode: 'EGLV',
          portOfLoading: { unLocationCode: 'CNSHA' },
          portOfDischarge: { unLocationCode: 'NLRTM' },
          accounts: [DEMO_ACCOUNT],
        },
      ],
      events: [arrival(1, 'PLN', '2026-12-10T06:00:00Z')],
    });
    const headers = { Authorization: `Bearer ${f.token}` };
    sse = createSseClient({ url, headers, retryAttempts: 0 });
    client = new Client({
      url,
      // POST: a GET needs the CSRF header (docs/graphql.md, Browsers: CORS and CSRF).
      preferGetMethod: false,
      fetchOptions: () => ({ headers }),
      exchanges: [
        cacheExchange({ keys: KEYS, resolvers: { Query: { shipmentsConnection: relayPagination() } } }),
        fetchExchange,
        subscriptionExchange({
          forwardSubscription: (operation) => ({
            subscribe: (sink) => ({ unsubscribe: sse.subscribe({ ...operation, query: operation.query ?? '' }, sink) }),
          }),
        }),
      ],
    });
  });
  afterAll(async () => {
    sse?.dispose();
    await http?.drain(1000);
    await f?.destroy();
  });

  it.skipIf(!enabled)('two different queries of one shipment share one cache entry; a live update changes it', async () => {
    const byBooking = await client.query(ShipmentByBookingQuery, { carrierCode: 'EGLV', carrierBookingReference: BOOKING }).toPromise();
    expect(byBooking.error).toBeUndefined();
    const id = byBooking.data!.shipment!.shipmentTracking.id;
    expect(byBooking.data!.shipment!.shipmentTracking.eta).toBe('2026-12-10T06:00:00.000Z');

    const details = await client.query(ShipmentDetailsQuery, { id }).toPromise();
    expect(details.error).toBeUndefined();
    expect(details.data!.node).toMatchObject({ id, eta: '2026-12-10T06:00:00.000Z', exceptions: [] });

    // One entry: writing the shipment through one query is read back by the other, from the cache alone.
    const cached = () => ({
      byBooking: client.readQuery(ShipmentByBookingQuery, { carrierCode: 'EGLV', carrierBookingReference: BOOKING })?.data,
      details: client.readQuery(ShipmentDetailsQuery, { id })?.data,
    });
    expect(cached().byBooking?.shipment?.shipmentTracking.id).toBe(id);

    const updates: unknown[] = [];
    const subscription = client.subscription(ShipmentUpdatesSubscription, { billOfLadingNumber: BL }).subscribe((result) => {
      updates.push(result.error ?? result.data);
    });
    try {
      // Give the stream its starting point before the change is committed.
      await new Promise((r) => setTimeout(r, 300));
      await f.ingest({ carrierCode: 'EGLV', events: [arrival(2, 'EST', '2026-12-12T06:00:00Z')] }, new Date('2026-11-20T12:00:00.000Z'));
      for (let waited = 0; updates.length === 0 && waited < 10_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    } finally {
      subscription.unsubscribe();
    }
    expect(updates[0]).toMatchObject({
      shipmentUpdates: { transmissionHeader: { triggerType: 'EXCEPTION_DETECTED' }, shipmentTracking: { id } },
    });

    // Both queries now show the update, read from the one cache entry without asking the service again.
    const after = cached();
    expect(after.byBooking?.shipment?.shipmentTracking.eta).toBe('2026-12-12T06:00:00.000Z');
    expect(after.details?.node).toMatchObject({
      id,
      eta: '2026-12-12T06:00:00.000Z',
      exceptions: [{ exceptionType: 'ETA_DELAY', status: 'DETECTED' }],
    });
  });

  it.skipIf(!enabled)('relayPagination pages shipmentsConnection to its end: every shipment once, in order', async () => {
    const all = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${f.token}` },
      body: JSON.stringify({ query: '{ shipmentsConnection(first: 100) { edges { node { id } } pageInfo { hasNextPage } } }' }),
    }).then((r) => r.json() as Promise<any>);
    const expected: string[] = all.data.shipmentsConnection.edges.map((e: { node: { id: string } }) => e.node.id);
    expect(all.data.shipmentsConnection.pageInfo.hasNextPage).toBe(false);
    expect(expected.length).toBeGreaterThan(4);

    let after: string | null = null;
    let pages = 0;
    let merged: string[];
    for (;;) {
      const page: { data?: ShipmentsPageResult; error?: unknown } = await client.query(ShipmentsPageQuery, { first: 2, after }).toPromise();
      expect(page.error).toBeUndefined();
      pages += 1;
      // relayPagination merges every page asked so far into the one list the query shows.
      merged = page.data!.shipmentsConnection.edges.map((e) => e.node.id);
      const { pageInfo } = page.data!.shipmentsConnection;
      if (!pageInfo.hasNextPage) break;
      after = pageInfo.endCursor;
    }
    expect(pages).toBe(Math.ceil(expected.length / 2));
    expect(merged).toEqual(expected);
    expect(new Set(merged).size).toBe(merged.length);
  });
});
