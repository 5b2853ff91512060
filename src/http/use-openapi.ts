import { Response } from '@whatwg-node/fetch';
import type { Plugin } from 'graphql-yoga';
import type { Config } from '../config/config.js';
import { DOCS_ASSETS, DOCS_ASSETS_PATH, renderDocsPage } from '../openapi/docs-page.js';
import { buildOpenApiDocument } from '../openapi/openapi-document.js';
import { staticAssetRoute } from '../http-messages/static-assets.js';

export const OPENAPI_PATH = '/openapi.json';
export const DOCS_PATH = '/docs';

/**
 * GET /openapi.json, the OpenAPI 3.1 document of the REST contract, and
 * GET /docs, its reference page (Swagger UI from the installed package).
 */
export function useOpenApi(config: Pick<Config, 'baseUrl' | 'environment'>): Plugin {
  // Built once: it depends only on the configuration and the code.
  const document = JSON.stringify(buildOpenApiDocument(config));
  const page = renderDocsPage(OPENAPI_PATH);
  const assets = staticAssetRoute(DOCS_ASSETS_PATH, DOCS_ASSETS);
  return {
    onRequest({ request, url, endResponse }) {
      const path = url.pathname.replace(/\/+$/, '') || '/';
      if (path === OPENAPI_PATH || path === DOCS_PATH) {
        if (request.method !== 'GET' && request.method !== 'HEAD') {
          endResponse(new Response('method not allowed', { status: 405, headers: { Allow: 'GET, HEAD' } }));
        } else if (path === OPENAPI_PATH) {
          endResponse(
            new Response(document, {
              headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'public, max-age=300' },
            }),
          );
        } else {
          endResponse(
            new Response(page, { headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'public, max-age=300' } }),
          );
        }
        return;
      }
      return assets(request, url.pathname)?.then(endResponse);
    },
  };
}
