import { READ_SCOPE } from '../auth/scopes.js';
import type { Config } from '../config/config.js';
import { buildSchemas, headersOf, HEADERS } from './components.js';
import { withQuotas } from './rate-limit-responses.js';
import type { JsonSchema } from './rest-schemas.js';
import { servicePaths } from './service-paths.js';
import { shipmentsPath } from './shipments-path.js';
import { SUBSCRIPTION_SCOPES, subscriptionsPaths } from './subscriptions-path.js';
import { tokenPath } from './token-path.js';
import { TRACKING_SCOPES, trackingRequestsPaths } from './tracking-requests-path.js';
import { CARRIER_SCOPES, carrierPaths, carrierSchemas } from './carriers-path.js';
import { dcsaHeaders, dcsaPaths, dcsaSchemas } from './dcsa-paths.js';
import { accountFeedPaths } from './account-feed-paths.js';

/**
 * The OpenAPI 3.1 document of the REST contract, served at /openapi.json and
 * rendered at /docs. Add a path here with each new REST route:
 * test/openapi-responses.test.ts checks real responses of every documented
 * status against it, and that every documented status was provoked.
 */
export function buildOpenApiDocument(config: Pick<Config, 'baseUrl' | 'environment'> & Partial<Pick<Config, 'quotas'>>): JsonSchema {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Track & Trace API',
      version: '1.2',
      summary: 'The current state of ocean shipments, from carrier events in the DCSA Track & Trace 2.2 model.',
      // Whoever runs this environment answers at its own address; the reference page is where clients start.
      contact: { name: `Track & Trace API (${config.environment})`, url: `${config.baseUrl}/docs` },
      description:
        'Clients get a token (OAuth 2.0 client credentials) and look up a shipment by carrier booking, bill of lading or ' +
        'container; the answer is a Transmission, the full current snapshot (identifiers, route, schedule, milestones, ' +
        'container movements, schedule and operational exceptions). Clients poll (conditionally, with ETags), or subscribe ' +
        'to push delivery (webhooks signed with HMAC-SHA256, or live GraphQL subscriptions). Carriers send DCSA Track & ' +
        'Trace 2.2 events in; operators post ingest bundles.\n\n' +
        "Every error, including a path that is not listed here (404), carries the DCSA error body with the request's " +
        'correlation id (X-Correlation-ID), except the token endpoint, which answers RFC 6749 error bodies.\n\n' +
        'The same data is served as GraphQL at `/graphql` (GraphiQL in the browser, in the sandbox). The sandbox and ' +
        'production behave identically; they differ in base address, keys and credentials, and a token of one is ' +
        'refused by the other.',
    },
    servers: [{ url: config.baseUrl, description: `This ${config.environment} environment.` }],
    tags: [
      { name: 'Authentication', description: 'OAuth 2.0 client credentials.' },
      { name: 'Shipments', description: 'The lookup, and the change feed of your account.' },
      { name: 'Tracking requests', description: 'Start tracking a bill of lading, booking or container with its carrier.' },
      { name: 'Push subscriptions', description: "Webhooks: the service POSTs a shipment's changes to your callback URL." },
      {
        name: 'DCSA Track & Trace 2.2',
        description: 'The service as a DCSA publisher: GET /v2/events and event subscriptions, as the standard defines them.',
      },
      { name: 'Carrier ingest', description: 'Carrier events in: DCSA notifications pushed by carriers, bundles posted by operators.' },
      { name: 'Operations', description: 'Liveness and readiness.' },
    ],
    paths: withRequestIds(
      withQuotas(
        {
          '/oauth/token': tokenPath(),
          '/v2/shipments': shipmentsPath(),
          ...subscriptionsPaths(),
          ...accountFeedPaths(),
          ...trackingRequestsPaths(),
          ...carrierPaths(),
          ...servicePaths(),
        },
        config.quotas,
      ),
      dcsaPaths(),
    ),
    components: {
      schemas: { ...buildSchemas(), ...carrierSchemas(), ...dcsaSchemas() },
      headers: { ...Object.fromEntries(Object.entries(HEADERS).map(([key, header]) => [key, header.object])), ...dcsaHeaders() },
      securitySchemes: {
        clientCredentials: {
          type: 'oauth2',
          description: 'A token from POST /oauth/token, sent as `Authorization: Bearer TOKEN`.',
          flows: {
            clientCredentials: {
              tokenUrl: `${config.baseUrl}/oauth/token`,
              scopes: {
                [READ_SCOPE]: 'Look up the shipments of the client’s account.',
                ...SUBSCRIPTION_SCOPES,
                ...TRACKING_SCOPES,
                ...CARRIER_SCOPES,
              },
            },
          },
        },
        bearerToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: `An access token with the ${READ_SCOPE} scope, obtained elsewhere.`,
        },
        clientBasic: { type: 'http', scheme: 'basic', description: 'client_id and client_secret as HTTP Basic (RFC 6749 2.3.1).' },
      },
    },
  };
}

/**
 * Every response of every operation carries the request's id (src/http/use-correlation-id.ts). The DCSA paths
 * (src/openapi/dcsa-paths.ts) declare their own quota headers, and join the others here.
 */
function withRequestIds(paths: Record<string, JsonSchema>, dcsa: Record<string, JsonSchema>): Record<string, JsonSchema> {
  paths = { ...paths, ...dcsa };
  const ids = headersOf(['CorrelationId', 'RequestId']);
  for (const path of Object.values(paths)) {
    for (const operation of Object.values(path as Record<string, JsonSchema>)) {
      for (const response of Object.values((operation.responses ?? {}) as Record<string, JsonSchema>)) {
        response.headers = { ...ids, ...(response.headers as JsonSchema | undefined) };
      }
    }
  }
  return paths;
}
