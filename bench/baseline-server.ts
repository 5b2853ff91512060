import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import SQLite from 'better-sqlite3';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import { createPool, type RowDataPacket } from 'mysql2/promise';
import { bestVersionPerMilestone } from '../src/domain/milestones.js';
import { assembleContainers, splitByType } from '../src/domain/snapshot.js';
import { decodeEventJson, type StoredPayload } from '../src/store/events/event-payload.js';
import type {
  ContainerMaster,
  EquipmentEvent,
  ShipmentMaster,
  TrackingEvent,
  TrackingException,
  TransportCall,
  TransportEvent,
} from '../src/domain/types.js';

/**
 * The benchmark's baseline: the ceiling for GET /v2/shipments?billOfLadingNumber=
 * on this machine. A bare node:http handler that does the work the lookup
 * cannot skip, by hand: verify the bearer token (same key, algorithm, issuer,
 * audience and type as the service), one lookup query with the tenant filter,
 * three queries for containers, events and exceptions in parallel, the pure
 * snapshot functions of src/domain, and one JSON.stringify. No GraphQL, no
 * framework, no caching.
 *
 * Environment: PORT, DATABASE_URL (mysql:// or sqlite:PATH), BASELINE_ISSUER,
 * BASELINE_JWKS (the service's /.well-known/jwks.json), BASELINE_POOL_SIZE.
 */

interface Store {
  /** id, master_json, etd, eta of the shipment the account may see, or undefined. */
  findByBillOfLading(
    bl: string,
    account: string,
  ): Promise<{ id: number; master_json: string; etd: string | null; eta: string | null } | undefined>;
  containers(id: number): Promise<string[]>;
  events(id: number): Promise<string[]>;
  exceptions(id: number): Promise<string[]>;
  accountOf(clientId: string): Promise<string | undefined>;
}

const LOOKUP = `select s.id, s.master_json, s.etd, s.eta from shipment s
  where s.bill_of_lading_number = ? and exists (select 1 from shipment_account sa where sa.shipment_id = s.id and sa.account_id = ?)
  limit 1`;
const CONTAINERS = 'select master_json from shipment_container where shipment_id = ? order by position';
// The events' stored form (src/store/events/event-payload.ts): decoding it is work the lookup cannot skip either.
const EVENTS = 'select e.payload, e.payload_json from shipment_event se join event e on e.seq = se.event_seq where se.shipment_id = ?';
const EXCEPTIONS = 'select body_json from tracking_exception where shipment_id = ?';
const CLIENT = 'select account_id from api_client where client_id = ? and disabled_at is null';

/** SQL statements sent, served on /internal/stats like the service's. */
let statements = 0;
let requests = 0;

function mysqlStore(url: string, poolSize: number): Store {
  const pool = createPool({ uri: url, connectionLimit: poolSize, dateStrings: true, timezone: 'Z', charset: 'utf8mb4' });
  const rows = async (sql: string, params: unknown[]) => {
    statements++;
    return (await pool.query<RowDataPacket[]>(sql, params))[0];
  };
  const column = async (sql: string, id: number, name: string) => (await rows(sql, [id])).map((r) => r[name] as string);
  return {
    findByBillOfLading: async (bl, account) => (await rows(LOOKUP, [bl, account]))[0] as never,
    containers: (id) => column(CONTAINERS, id, 'master_json'),
    events: async (id) => (await rows(EVENTS, [id])).map((r) => decodeEventJson(r as unknown as StoredPayload)),
    exceptions: (id) => column(EXCEPTIONS, id, 'body_json'),
    accountOf: async (clientId) => (await rows(CLIENT, [clientId]))[0]?.account_id as string | undefined,
  };
}

function sqliteStore(path: string): Store {
  const db = new SQLite(path, { readonly: true });
  db.pragma('busy_timeout = 5000');
  const lookup = db.prepare(LOOKUP);
  const containers = db.prepare(CONTAINERS).pluck();
  const events = db.prepare(EVENTS);
  const exceptions = db.prepare(EXCEPTIONS).pluck();
  const client = db.prepare(CLIENT).pluck();
  const counted = <T>(value: T): T => {
    statements++;
    return value;
  };
  return {
    findByBillOfLading: async (bl, account) => counted(lookup.get(bl, account) as never),
    containers: async (id) => counted(containers.all(id) as string[]),
    events: async (id) => counted((events.all(id) as StoredPayload[]).map(decodeEventJson)),
    exceptions: async (id) => counted(exceptions.all(id) as string[]),
    accountOf: async (clientId) => counted(client.get(clientId) as string | undefined),
  };
}

const url = process.env.DATABASE_URL ?? '';
const store = url.startsWith('mysql://')
  ? mysqlStore(url, Number(process.env.BASELINE_POOL_SIZE ?? 10))
  : sqliteStore(url.replace(/^sqlite:/, ''));
const jwks = createLocalJWKSet(JSON.parse(process.env.BASELINE_JWKS ?? '{"keys":[]}') as JSONWebKeySet);
const issuer = process.env.BASELINE_ISSUER ?? '';
/** Client accounts, cached for the life of the process: the ceiling does not re-check. */
const accounts = new Map<string, string | undefined>();
let transmissions = 0;

/** The served transport call: everything but the carrier's internal transportCallID. */
function servedCall(call: TransportCall | undefined): Omit<TransportCall, 'transportCallID'> | undefined {
  if (!call) return undefined;
  const { transportCallID: _id, ...served } = call;
  return served;
}

function servedTransportEvent(event: TransportEvent): TransportEvent {
  return { ...event, transportCall: servedCall(event.transportCall) as TransportCall };
}

/** Equipment events as the REST document selects them: no documentReferences, no transportCallID. */
function servedEquipmentEvent(event: EquipmentEvent): Omit<EquipmentEvent, 'documentReferences'> {
  const { documentReferences: _refs, transportCall, ...rest } = event;
  return transportCall ? { ...rest, transportCall: servedCall(transportCall) as TransportCall } : rest;
}

function body(
  clientId: string,
  row: { master_json: string; etd: string | null; eta: string | null },
  containerRows: string[],
  eventRows: string[],
  exceptionRows: string[],
): string {
  const master = JSON.parse(row.master_json) as ShipmentMaster;
  const events = splitByType(eventRows.map((e) => JSON.parse(e) as TrackingEvent));
  const containers = assembleContainers(
    containerRows.map((c) => JSON.parse(c) as ContainerMaster),
    events.equipment,
  ).map((c) => ({
    ...c,
    latestEvent: c.latestEvent ? servedEquipmentEvent(c.latestEvent) : null,
    eventHistory: c.eventHistory.map(servedEquipmentEvent),
  }));
  const exceptions = exceptionRows
    .map((e) => JSON.parse(e) as TrackingException)
    .sort((a, b) =>
      a.detectedDateTime !== b.detectedDateTime
        ? a.detectedDateTime < b.detectedDateTime
          ? -1
          : 1
        : a.exceptionID < b.exceptionID
          ? -1
          : 1,
    );
  return JSON.stringify({
    transmissionHeader: {
      transmissionID: `TXN-${String(++transmissions).padStart(12, '0')}`,
      transmissionDateTime: new Date().toISOString(),
      triggerType: 'MANUAL_TRIGGER',
      triggeredByEvent: null,
      senderID: 'TRACK-AND-TRACE',
      receiverID: clientId,
      schemaVersion: '1.2',
    },
    shipmentTracking: {
      ...master,
      bookingReference: master.bookingReference ?? null,
      billOfLadingNumber: master.billOfLadingNumber ?? null,
      carrierName: master.carrierName ?? null,
      serviceType: master.serviceType ?? null,
      etd: row.etd,
      eta: row.eta,
      shipmentEvents: bestVersionPerMilestone(events.shipment),
      transportEvents: bestVersionPerMilestone(events.transport).map(servedTransportEvent),
      containers,
      exceptions,
    },
  });
}

function send(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://baseline');
  if (url.pathname === '/internal/stats') return send(res, 200, JSON.stringify({ statements, requests }));
  requests++;
  const bl = url.searchParams.get('billOfLadingNumber');
  if (req.method !== 'GET' || url.pathname !== '/v2/shipments' || !bl) return send(res, 400, '{"error":"bad request"}');
  const token = /^Bearer +(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
  if (!token) return send(res, 401, '{"error":"invalid_token"}');
  let clientId: string;
  try {
    const { payload } = await jwtVerify(token, jwks, {
      algorithms: ['ES256'],
      issuer,
      audience: 'track-and-trace',
      typ: 'at+jwt',
      requiredClaims: ['sub', 'client_id', 'scope', 'iat', 'exp', 'jti'],
    });
    clientId = String(payload.sub);
  } catch {
    return send(res, 401, '{"error":"invalid_token"}');
  }
  if (!accounts.has(clientId)) accounts.set(clientId, await store.accountOf(clientId));
  const account = accounts.get(clientId);
  const row = account === undefined ? undefined : await store.findByBillOfLading(bl, account);
  if (!row) return send(res, 404, '{"error":"not found"}');
  const [containers, events, exceptions] = await Promise.all([store.containers(row.id), store.events(row.id), store.exceptions(row.id)]);
  send(res, 200, body(clientId, row, containers, events, exceptions));
}

const server = createServer((req, res) => {
  handle(req, res).catch((err: unknown) => {
    process.stderr.write(`baseline: ${err instanceof Error ? err.stack : String(err)}\n`);
    if (!res.headersSent) send(res, 500, '{"error":"internal"}');
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`baseline listening on port ${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.once('SIGTERM', () => process.exit(0));
