import { Spectral } from '@stoplight/spectral-core';
import { oas } from '@stoplight/spectral-rulesets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE, createTestApp, type TestApp } from './support/app-fixture.js';

/**
 * The served /openapi.json through Spectral's `spectral:oas` ruleset (its recommended rules, as `extends:
 * spectral:oas` in a .spectral.yaml runs them; the ruleset's version is pinned in devDependencies): no error and
 * no warning. Client generators and API gateways lint what they import; a finding here is one there.
 */
describe('the served OpenAPI document under spectral:oas', () => {
  let f: TestApp;
  beforeAll(async () => {
    f = await createTestApp('sqlite');
  });
  afterAll(async () => f?.destroy());

  it('has no error and no warning', async () => {
    const response = await f.app.fetch(`${BASE}/openapi.json`);
    expect(response.status).toBe(200);
    const spectral = new Spectral();
    spectral.setRuleset({ extends: [[oas as never, 'recommended']] });
    const findings = await spectral.run(await response.text());
    // Severity 0 is an error, 1 a warning (2 information, 3 a hint).
    const problems = findings
      .filter((r) => r.severity <= 1)
      .map((r) => `${r.severity === 0 ? 'error' : 'warning'} ${r.code} at ${r.path.join('.')}: ${r.message}`);
    expect(problems).toEqual([]);
  });
});
