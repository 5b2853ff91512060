import { jsonResponse } from './responses.js';
import type { JsonSchema } from './rest-schemas.js';

/** GET /.well-known/jwks.json, GET /health and GET /ready. */
export function servicePaths(): Record<string, JsonSchema> {
  return {
    '/.well-known/jwks.json': {
      get: {
        tags: ['Authentication'],
        operationId: 'getSigningKeys',
        summary: 'Token signing keys',
        description: 'The public keys that verify access tokens (ES256 JWTs, RFC 9068): for clients that check tokens themselves.',
        security: [],
        responses: { 200: jsonResponse('GET /.well-known/jwks.json', 200, 'The key set.', 'JsonWebKeySet', ['PublicCache']) },
      },
    },
    '/health': {
      get: {
        tags: ['Operations'],
        operationId: 'getHealth',
        summary: 'Liveness',
        description: 'Answers while the process runs, without looking at the database.',
        security: [],
        responses: { 200: { description: 'The process is up (empty body).' } },
      },
    },
    '/ready': {
      get: {
        tags: ['Operations'],
        operationId: 'getReadiness',
        summary: 'Readiness',
        description: 'Whether the database answers: take the instance out of rotation on 503.',
        security: [],
        responses: {
          200: jsonResponse('GET /ready', 200, 'Ready.', 'Readiness', ['NoStore']),
          503: jsonResponse(
            'GET /ready',
            503,
            'The database does not answer within 1 s (`unavailable`), or the instance is shutting down (`shutting-down`).',
            'Readiness',
            ['NoStore', 'RetryAfter'],
          ),
        },
      },
    },
  };
}
