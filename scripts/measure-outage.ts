/**
 * Measures how long a real `tracking serve` (default timeouts) takes to answer
 * a lookup, a token request, a GraphQL query and /ready while its MariaDB is
 * frozen (a TCP proxy stops forwarding, as SIGSTOP would) and while it is cut,
 * and whether it recovers. Usage: MYSQL_URL=mysql://root@127.0.0.1:3306/db npx tsx scripts/measure-outage.ts
 * (the database must exist and be migrated/seeded by an earlier serve, or empty: serve migrates and seeds it).
 */
import { spawn } from 'node:child_process';
import { TcpProxy } from '../test/support/tcp-proxy.js';

const url = process.env.MYSQL_URL;
if (!url) throw new Error('MYSQL_URL is required');
const target = new URL(url);
const proxy = await new TcpProxy(target.hostname, Number(target.port || 3306)).start();
const child = spawn(process.execPath, ['dist/src/cli/main.js', 'serve'], {
  env: {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: proxy.proxiedUrl(url),
    TT_LOG_LEVEL: 'warn',
    TT_EVALUATE_INTERVAL_SECONDS: '0',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
let out = '';
const port = await new Promise<number>((resolve) =>
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
    const m = /listening on http:\/\/localhost:(\d+)/.exec(out);
    if (m) resolve(Number(m[1]));
  }),
);
const demo = JSON.parse(out.split('\n').find((l) => l.includes('sandboxDemoClient'))!).sandboxDemoClient as {
  client_id: string;
  client_secret: string;
};
const base = `http://127.0.0.1:${port}`;
const tokenBody = new URLSearchParams({
  grant_type: 'client_credentials',
  client_id: demo.client_id,
  client_secret: demo.client_secret,
}).toString();
const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
const token = (
  (await (await fetch(`${base}/oauth/token`, { method: 'POST', headers: form, body: tokenBody })).json()) as { access_token: string }
).access_token;
const auth = { Authorization: `Bearer ${token}` };
const routes: Record<string, () => Promise<Response>> = {
  lookup: () => fetch(`${base}/v2/shipments?billOfLadingNumber=MAEU262150002`, { headers: auth }),
  token: () => fetch(`${base}/oauth/token`, { method: 'POST', headers: form, body: tokenBody }),
  graphql: () =>
    fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: '{ shipment(billOfLadingNumber: "MAEU262150002") { transmissionHeader { transmissionID } } }' }),
    }),
  ready: () => fetch(`${base}/ready`),
};
async function round(label: string): Promise<void> {
  const figures = await Promise.all(
    Object.entries(routes).map(async ([name, call]) => {
      const started = performance.now();
      const response = await call();
      await response.text();
      return `${name} ${response.status}${response.headers.get('retry-after') ? ` (Retry-After ${response.headers.get('retry-after')})` : ''} in ${Math.round(performance.now() - started)} ms`;
    }),
  );
  console.log(`${label}: ${figures.join(', ')}`);
}
await round('normal');
proxy.freeze();
await round('frozen, 1st');
await round('frozen, 2nd');
proxy.restore();
await new Promise((r) => setTimeout(r, 500));
await round('restored');
proxy.cut();
await round('cut');
proxy.restore();
await new Promise((r) => setTimeout(r, 500));
await round('restored');
child.kill('SIGTERM');
await proxy.close();
