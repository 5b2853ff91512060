import { sql } from 'kysely';
import type { Plugin } from 'graphql-yoga';
import type { Database } from '../db/connect.js';
import { jsonResponse } from '../rest/json-response.js';

/** GET /ready: 200 when the database answers, 503 otherwise (liveness is Yoga's /health). */
export function useReadiness(database: Database): Plugin {
  return {
    async onRequest({ url, endResponse }) {
      if (url.pathname !== '/ready') return;
      try {
        await sql`select 1`.execute(database.db);
        endResponse(jsonResponse({ status: 'ready', database: database.dialect }, 200, { 'Cache-Control': 'no-store' }));
      } catch {
        endResponse(jsonResponse({ status: 'unavailable', database: database.dialect }, 503, { 'Cache-Control': 'no-store' }));
      }
    },
  };
}
