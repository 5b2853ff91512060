import type { GraphiQLOptions } from 'graphql-yoga';
import { GRAPHIQL_ASSETS_PATH, GRAPHIQL_WORKERS } from './assets.js';

/** JSON that is safe inside a <script> element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The GraphiQL page (Yoga's `renderGraphiQL`): YogaGraphiQL, as Yoga's own
 * page renders it, with every asset from this server (see assets.ts).
 */
export function renderGraphiQLPage(options: GraphiQLOptions): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>${escapeHtml(options.title ?? 'GraphiQL')}</title>
    <link rel="icon" href="${GRAPHIQL_ASSETS_PATH}/favicon.ico" />
    <link rel="stylesheet" href="${GRAPHIQL_ASSETS_PATH}/graphiql.css" />
  </head>
  <body id="body" class="no-focus-outline">
    <noscript>GraphiQL needs JavaScript.</noscript>
    <div id="root"></div>
    <script>
      const workers = ${scriptJson(GRAPHIQL_WORKERS)};
      self.MonacoEnvironment = { globalAPI: false, getWorkerUrl: (_moduleId, label) => workers[label] };
    </script>
    <script src="${GRAPHIQL_ASSETS_PATH}/yoga-graphiql.js"></script>
    <script>
      YogaGraphiQL.renderYogaGraphiQL(document.getElementById('root'), ${scriptJson(options)});
    </script>
  </body>
</html>
`;
}
