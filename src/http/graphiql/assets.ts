import { createRequire } from 'node:module';
import type { StaticAsset } from '../../http-messages/static-assets.js';

const require = createRequire(import.meta.url);
const { version } = require('@graphql-yoga/render-graphiql/package.json') as { version: string };

/**
 * GraphiQL as `@graphql-yoga/render-graphiql` ships it, bundled: the same
 * YogaGraphiQL that Yoga's default page loads from a CDN. Served from here,
 * so GraphiQL works without the internet.
 */
export const GRAPHIQL_ASSETS_PATH = `/graphiql/${version}`;

/** The bundle is 9 MB of strings: imported on the first asset request, never at start-up. */
const bundle = () => import('@graphql-yoga/render-graphiql/graphiql');

const JAVASCRIPT = 'text/javascript; charset=utf-8';

export const GRAPHIQL_ASSETS: Readonly<Record<string, StaticAsset>> = {
  'yoga-graphiql.js': { contentType: JAVASCRIPT, load: async () => (await bundle()).js },
  'graphiql.css': { contentType: 'text/css; charset=utf-8', load: async () => (await bundle()).css },
  'editor.worker.js': { contentType: JAVASCRIPT, load: async () => (await bundle()).editorWorkerService },
  'json.worker.js': { contentType: JAVASCRIPT, load: async () => (await bundle()).jsonWorker },
  'graphql.worker.js': { contentType: JAVASCRIPT, load: async () => (await bundle()).graphqlWorker },
  'favicon.ico': {
    contentType: 'image/x-icon',
    // Shipped as a data: URL.
    load: async () => Buffer.from((await bundle()).favicon.replace(/^data:[^,]*;base64,/, ''), 'base64'),
  },
};

/** Monaco's worker for each label it asks for (the labels YogaGraphiQL's own page maps). */
export const GRAPHIQL_WORKERS = {
  editorWorkerService: `${GRAPHIQL_ASSETS_PATH}/editor.worker.js`,
  json: `${GRAPHIQL_ASSETS_PATH}/json.worker.js`,
  graphql: `${GRAPHIQL_ASSETS_PATH}/graphql.worker.js`,
};
