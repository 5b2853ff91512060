import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxApp, type SandboxApp } from './support/sandbox-app.js';

/**
 * The developer pages as a person sees them: Debian's Chromium, headless,
 * against a real server over the sandbox data. Every request to another
 * host is aborted and recorded: the pages must work offline. Screenshots go
 * to test-results/browser/ (their paths are printed).
 */
const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
const SCREENSHOTS = fileURLToPath(new URL('../test-results/browser/', import.meta.url));

describe.skipIf(!hasChromium)(
  hasChromium
    ? `developer pages in ${CHROMIUM}`
    : `developer pages in Chromium (skipped: ${CHROMIUM} is missing; apt-get install chromium)`,
  () => {
    let f: SandboxApp;
    let server: Server;
    let origin: string;
    let profile: string;
    let context: BrowserContext;
    const outsideRequests: string[] = [];

    beforeAll(async () => {
      f = await createSandboxApp('sqlite');
      server = createServer(f.app.listener);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      profile = mkdtempSync(join(tmpdir(), 'tt-chromium-'));
      context = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        headless: true,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
        viewport: { width: 1400, height: 900 },
      });
      await context.route('**/*', (route) => {
        const url = route.request().url();
        if (new URL(url).origin === origin) return route.continue();
        outsideRequests.push(url);
        return route.abort('blockedbyclient');
      });
      mkdirSync(SCREENSHOTS, { recursive: true });
    });

    afterAll(async () => {
      await context?.close();
      await new Promise((resolve) => server?.close(resolve));
      await f?.destroy();
      if (profile) rmSync(profile, { recursive: true, force: true });
    });

    /** A new tab that records the page's script errors. */
    async function openPage(): Promise<{ page: Page; errors: string[] }> {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      return { page, errors };
    }

    /** The text of a Monaco editor, which lays spaces out as no-break spaces. */
    async function editorText(editor: Locator): Promise<string> {
      return (await editor.innerText()).replace(/\u00a0/g, ' ');
    }

    async function screenshot(page: Page, name: string): Promise<void> {
      const path = join(SCREENSHOTS, name);
      await page.screenshot({ path });
      console.log(`screenshot: ${path}`);
    }

    it('GraphiQL loads offline and runs the default query with the pre-filled token, showing the eta', async () => {
      const rest = await f.get('/v2/shipments?billOfLadingNumber=MAEU262150002', f.token);
      const { eta } = ((await rest.json()) as { shipmentTracking: { eta: string } }).shipmentTracking;
      expect(eta).toMatch(/^\d{4}-\d{2}-\d{2}T/);

      const { page, errors } = await openPage();
      await page.goto(`${origin}/graphql`);
      await page.getByRole('button', { name: /execute/i }).waitFor({ timeout: 30_000 });
      expect(await editorText(page.locator('.graphiql-editor-tool'))).toMatch(/"Authorization": "Bearer ey/);

      // Several operations: the run button asks which one.
      await page.getByRole('button', { name: /execute/i }).click();
      await page.getByRole('menuitem', { name: 'ShipmentEta' }).click();
      const response = page.locator('.graphiql-response');
      await response.getByText(eta).waitFor({ timeout: 30_000 });
      expect(await editorText(response)).toContain(`"eta": "${eta}"`);

      await screenshot(page, 'graphiql.png');
      expect(errors).toEqual([]);
      expect(outsideRequests).toEqual([]);
      await page.close();
    }, 90_000);

    it('GraphiQL introspects the schema and starts a live update (GET over SSE) past the CSRF check', async () => {
      const { page, errors } = await openPage();
      const answers: { method: string; status: number; csrf: string | undefined; body: string }[] = [];
      page.on('response', (response) => {
        const request = response.request();
        if (new URL(request.url()).pathname !== '/graphql' || request.resourceType() === 'document') return;
        answers.push({
          method: request.method(),
          status: response.status(),
          csrf: request.headers()['x-graphql-yoga-csrf'],
          body: request.postData() ?? '',
        });
      });
      const live = 'subscription Live { shipmentUpdates(billOfLadingNumber: "MAEU262150002") { transmissionHeader { triggerType } } }';
      await page.goto(`${origin}/graphql?query=${encodeURIComponent(live)}`);
      await page.getByRole('button', { name: /execute/i }).waitFor({ timeout: 30_000 });
      const stream = page.waitForResponse((r) => r.request().method() === 'GET' && new URL(r.url()).pathname === '/graphql', {
        timeout: 30_000,
      });
      await page.getByRole('button', { name: /execute/i }).click();
      expect((await stream).status()).toBe(200);
      await expect.poll(() => answers.some((a) => a.method === 'POST' && a.body.includes('__schema') && a.status === 200)).toBe(true);
      expect(answers.filter((a) => a.status >= 400)).toEqual([]);
      expect(answers.every((a) => a.csrf === 'graphiql')).toBe(true);
      expect(errors).toEqual([]);
      expect(outsideRequests).toEqual([]);
      await page.close();
    }, 90_000);

    it('/docs renders the OpenAPI reference offline, with the sandbox example of a lookup', async () => {
      const { page, errors } = await openPage();
      await page.goto(`${origin}/docs`);
      const lookup = page.locator('#operations-Shipments-lookUpShipment');
      await lookup.waitFor({ timeout: 30_000 });
      for (const path of ['/oauth/token', '/v2/shipments', '/.well-known/jwks.json', '/health', '/ready']) {
        await expect(page.getByText(path, { exact: true }).count()).resolves.toBeGreaterThan(0);
      }
      await lookup.locator('.opblock-summary').click();
      await lookup.getByText('"billOfLadingNumber": "MAEU262150002"').first().waitFor({ timeout: 30_000 });

      await screenshot(page, 'docs.png');
      expect(errors).toEqual([]);
      expect(outsideRequests).toEqual([]);
      await page.close();
    }, 90_000);
  },
);
