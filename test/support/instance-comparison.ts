import type { Instance } from './release-instance.js';
import { SHIPMENT_QUERY, type LoadShipment } from './upgrade-load.js';

/**
 * The mixed phase's promise of the rolling-upgrade test (issue 48): an old and a new instance, asked directly (not
 * through the balancer), give the same shipmentTracking for the same lookup, REST's and GraphQL's.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What a lookup answers that is the same on every instance: the body without what differs per request. */
async function trackingOf(instance: Instance, shipment: LoadShipment, readToken: string): Promise<string> {
  const rest = await fetch(`${instance.base}/v2/shipments?billOfLadingNumber=${shipment.billOfLadingNumber}`, {
    headers: { Authorization: `Bearer ${readToken}` },
    signal: AbortSignal.timeout(10_000),
  });
  const restBody = await rest.text();
  if (rest.status !== 200) return `REST ${rest.status} ${restBody}`;
  const graphql = await fetch(`${instance.base}/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${readToken}` },
    body: JSON.stringify({
      query: SHIPMENT_QUERY,
      variables: { carrierCode: shipment.carrierCode, carrierBookingReference: shipment.carrierBookingReference },
    }),
    signal: AbortSignal.timeout(10_000),
  });
  const graphqlBody = (await graphql.json()) as { data?: { shipment?: { shipmentTracking?: unknown } }; errors?: unknown };
  if (graphql.status !== 200 || graphqlBody.errors) return `GraphQL ${graphql.status} ${JSON.stringify(graphqlBody)}`;
  return JSON.stringify({
    rest: (JSON.parse(restBody) as { shipmentTracking: unknown }).shipmentTracking,
    graphql: graphqlBody.data?.shipment?.shipmentTracking,
  });
}

export interface Comparison {
  phase: string;
  compared: number;
  differing: string[];
}

/**
 * The same lookups of an old and a new instance, asked directly: equal, or a difference. An ingest may land
 * between the two answers, so a difference is asked again (up to 5 times) before it counts.
 */
export async function compareInstances(
  phase: string,
  old: Instance,
  current: Instance,
  shipments: LoadShipment[],
  readToken: string,
): Promise<Comparison> {
  const result: Comparison = { phase, compared: 0, differing: [] };
  for (const shipment of shipments) {
    result.compared++;
    let last = '';
    for (let attempt = 0; attempt < 5; attempt++) {
      const [a, b] = [await trackingOf(old, shipment, readToken), await trackingOf(current, shipment, readToken)];
      if (a === b && !a.startsWith('REST ') && !a.startsWith('GraphQL ')) {
        last = '';
        break;
      }
      last = `${shipment.billOfLadingNumber}: ${old.name} (${old.release?.version}) ${a.slice(0, 300)} | ${current.name} (${current.release?.version}) ${b.slice(0, 300)}`;
      await sleep(100);
    }
    if (last) result.differing.push(last);
  }
  return result;
}
