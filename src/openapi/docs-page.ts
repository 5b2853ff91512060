import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { StaticAsset } from '../http-messages/static-assets.js';

const require = createRequire(import.meta.url);
const SWAGGER_UI_PACKAGE = require.resolve('swagger-ui-dist/package.json');
const { version } = require(SWAGGER_UI_PACKAGE) as { version: string };

/** Swagger UI as `swagger-ui-dist` ships it, served by the app: /docs works without the internet. */
export const DOCS_ASSETS_PATH = `/docs/assets/${version}`;

const file = (name: string) => () => readFile(join(dirname(SWAGGER_UI_PACKAGE), name));

export const DOCS_ASSETS: Readonly<Record<string, StaticAsset>> = {
  'swagger-ui-bundle.js': { contentType: 'text/javascript; charset=utf-8', load: file('swagger-ui-bundle.js') },
  'swagger-ui.css': { contentType: 'text/css; charset=utf-8', load: file('swagger-ui.css') },
  'favicon-32x32.png': { contentType: 'image/png', load: file('favicon-32x32.png') },
};

/** The /docs page: Swagger UI over /openapi.json. */
export function renderDocsPage(openApiPath: string): string {
  const options = {
    url: openApiPath,
    dom_id: '#swagger-ui',
    deepLinking: true,
    // The default sends the document to validator.swagger.io for a badge.
    validatorUrl: null,
  };
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Track &amp; Trace API reference</title>
    <link rel="icon" type="image/png" href="${DOCS_ASSETS_PATH}/favicon-32x32.png" />
    <link rel="stylesheet" href="${DOCS_ASSETS_PATH}/swagger-ui.css" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${DOCS_ASSETS_PATH}/swagger-ui-bundle.js"></script>
    <script>
      window.ui = SwaggerUIBundle(${JSON.stringify(options).replace(/</g, '\\u003c')});
    </script>
  </body>
</html>
`;
}
