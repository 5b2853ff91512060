import type { GraphiQLOptions } from 'graphql-yoga';
import type { ClientStore } from '../../auth/client-store.js';
import { READ_SCOPE } from '../../auth/scopes.js';
import type { TokenService } from '../../auth/tokens.js';
import { readSandboxDemoClientId } from '../../store/housekeeping/sandbox-demo-client.js';
import type { Config } from '../../config/config.js';
import type { Database } from '../../db/connect.js';
import { graphiqlDefaultDocument } from './default-document.js';
import { CSRF_HEADER } from '../use-csrf-prevention.js';

export interface GraphiQLDependencies {
  config: Config;
  database: Database;
  clients: ClientStore;
  tokens: TokenService;
}

/**
 * Yoga's `graphiql` option: false unless TT_GRAPHIQL, otherwise the options
 * of each page. A sandbox convenience: in the sandbox, once serve has
 * created the demo client, each page comes with a fresh read token of that
 * client (account demo-account, the sandbox's demo data) in the Headers
 * tab, so the default document runs as it is. Never in production.
 */
export function graphiqlOptions(deps: GraphiQLDependencies): false | (() => Promise<GraphiQLOptions>) {
  if (!deps.config.graphiql) return false;
  return async () => {
    const token = await sandboxDemoToken(deps);
    const options: GraphiQLOptions = {
      title: 'Track & Trace GraphQL',
      defaultQuery: graphiqlDefaultDocument({ withDemoToken: token !== null }),
      // Sent with every request, outside the Headers tab: live updates go over GET (SSE), which
      // the CSRF prevention of /graphql refuses without it (use-csrf-prevention.ts).
      additionalHeaders: { [CSRF_HEADER]: 'graphiql' },
    };
    if (token === null) return options;
    return {
      ...options,
      defaultHeaders: JSON.stringify({ Authorization: `Bearer ${token}` }, null, 2),
      // Tabs restored from the browser's storage then take this page's token
      // instead of an expired one from an earlier visit.
      shouldPersistHeaders: false,
    };
  };
}

async function sandboxDemoToken({ config, database, clients, tokens }: GraphiQLDependencies): Promise<string | null> {
  if (config.environment !== 'sandbox') return null;
  const clientId = await readSandboxDemoClientId(database.db);
  if (clientId === null || !(await clients.isClientActive(clientId))) return null;
  return (await tokens.issueToken({ clientId, scope: READ_SCOPE })).access_token;
}
