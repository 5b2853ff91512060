import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from './support/databases.js';
import { createSandboxApp, SANDBOX_LOOKUPS, type SandboxApp } from './support/sandbox-app.js';

/**
 * The exact bytes of GET /v2/shipments for the sandbox data, pinned in
 * files under __snapshots__/sandbox-rest/: a change of the GraphQL schema
 * (scalars, enums, descriptions) must not change what REST clients receive.
 * Both stores compare against the same files, so they also answer the same
 * bytes. Only the per-request values are masked: transmissionID and the
 * demo client's id (receiverID), which is random per database.
 */
describe.each(dialects)('REST bytes of the sandbox lookups on $name', ({ name, enabled }) => {
  let f: SandboxApp;
  beforeAll(async () => {
    if (enabled) f = await createSandboxApp(name);
  });
  afterAll(async () => f?.destroy());

  it.skipIf(!enabled).each(Object.entries(SANDBOX_LOOKUPS))('%s', async (label, query) => {
    const response = await f.get(`/v2/shipments?${query}`, f.token);
    expect(response.status).toBe(200);
    const body = (await response.text())
      .replace(/"transmissionID":"TXN-\d+"/, '"transmissionID":"TXN-MASKED"')
      .replace(`"receiverID":${JSON.stringify(f.demo.client_id)}`, '"receiverID":"DEMO-CLIENT-MASKED"');
    await expect(body).toMatchFileSnapshot(`./__snapshots__/sandbox-rest/${label}.json`);
  });
});
