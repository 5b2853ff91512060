import { useCORS, type ServerAdapterPlugin } from '@whatwg-node/server';
import type { YogaServerOptions } from 'graphql-yoga';

type CorsOption = YogaServerOptions<Record<string, unknown>, Record<string, unknown>>['cors'];

/**
 * Cross-origin access from TT_CORS_ORIGINS, as Yoga's `cors` option plus a
 * plugin. Yoga's default reflects any Origin and allows credentials, so any
 * web page could read what a visitor's browser can reach. Here: no CORS at
 * all unless origins are listed; a listed origin (or any, with `*`) gets the
 * Access-Control-Allow-* headers, an unlisted one none; never
 * Access-Control-Allow-Credentials (the API takes bearer tokens, not cookies).
 */
export function corsPolicy(origins: readonly string[]): {
  option: CorsOption;
  plugins: ServerAdapterPlugin[];
  /** The same policy for a pipeline without Yoga's `cors` option (the REST server): preflight answers and headers. */
  serverPlugins: ServerAdapterPlugin[];
} {
  if (origins.length === 0) return { option: false, plugins: [], serverPlugins: [] };
  const any = origins.includes('*');
  const option: CorsOption = (request: Request) => {
    const origin = request.headers.get('origin');
    if (origin === null || (!any && !origins.includes(origin.toLowerCase()))) return false;
    return {
      // The caller's origin alone: Yoga answers a longer list with its first entry, or "null".
      origin: any ? '*' : origin,
      credentials: false,
      methods: ['GET', 'POST', 'DELETE', 'OPTIONS'],
      allowedHeaders: ['Authorization', 'Content-Type', 'Accept', 'X-Request-ID', 'traceparent', 'X-GraphQL-Yoga-CSRF'],
      exposedHeaders: ['X-Request-ID', 'X-Correlation-ID', 'Retry-After', 'WWW-Authenticate'],
      maxAge: 600,
    };
  };
  // The headers depend on Origin: a shared cache (the JWKS is public for 5 minutes) must key on it.
  const vary: ServerAdapterPlugin = {
    onResponse({ response }) {
      if (any) return;
      const current = response.headers.get('vary');
      if (!current?.split(',').some((v) => v.trim().toLowerCase() === 'origin')) {
        response.headers.set('Vary', current ? `${current}, Origin` : 'Origin');
      }
    },
  };
  return { option, plugins: [vary], serverPlugins: [useCORS(option as Parameters<typeof useCORS>[0]) as ServerAdapterPlugin, vary] };
}
