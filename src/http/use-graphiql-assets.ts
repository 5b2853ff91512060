import type { Plugin } from 'graphql-yoga';
import { GRAPHIQL_ASSETS, GRAPHIQL_ASSETS_PATH } from './graphiql/assets.js';
import { staticAssetRoute } from '../http-messages/static-assets.js';

/**
 * GraphiQL's scripts, styles and workers from the installed package (see
 * src/http/graphiql/assets.ts), and no caching of the page itself: in the
 * sandbox it carries a token minted for it. Mounted only with TT_GRAPHIQL.
 */
export function useGraphiQLAssets(graphqlEndpoint: string): Plugin {
  const serve = staticAssetRoute(GRAPHIQL_ASSETS_PATH, GRAPHIQL_ASSETS);
  return {
    onRequest({ request, url, endResponse }) {
      return serve(request, url.pathname)?.then(endResponse);
    },
    onResponse({ request, response }) {
      if (request.method !== 'GET' || !response.headers.get('content-type')?.startsWith('text/html')) return;
      if (new URL(request.url).pathname.replace(/\/+$/, '') === graphqlEndpoint) response.headers.set('Cache-Control', 'no-store');
    },
  };
}
