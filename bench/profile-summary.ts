import { readFileSync } from 'node:fs';

/**
 * Summarizes a V8 .cpuprofile (from `npm run bench -- --cpu-prof DIR`): self
 * time by function and by package, and inclusive time of the heaviest frames,
 * so the real cost is read before anything is optimized.
 *
 *   node dist-bench/bench/profile-summary.js DIR/CPU.*.cpuprofile [top] [--from S] [--to S]
 *   node dist-bench/bench/profile-summary.js DIR/CPU.*.cpuprofile --seconds
 *
 * The service's profile covers its whole run, mostly idle between
 * scenarios: `--seconds` prints how busy each second of it was, so that
 * `--from`/`--to` (seconds since the profile started) can cut out the one
 * scenario being read.
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const args = process.argv.slice(2);
const file = args[0];
if (!file) {
  process.stderr.write('usage: profile-summary FILE.cpuprofile [top] [--from S] [--to S] | --seconds\n');
  process.exit(2);
}
const option = (name: string): number | undefined => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : undefined;
};
const top = args[1] !== undefined && !args[1].startsWith('--') ? Number(args[1]) : 25;
const fromUs = (option('--from') ?? 0) * 1e6;
const toUs = (option('--to') ?? Infinity) * 1e6;
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const isIdle = (id: number) => byId.get(id)?.callFrame.functionName === '(idle)';
const selfUs = new Map<number, number>();
const perSecond = new Map<number, { all: number; idle: number }>();
let at = 0;
profile.samples.forEach((id, i) => {
  const us = profile.timeDeltas[i] ?? 0;
  at += us;
  const second = perSecond.get(Math.floor(at / 1e6)) ?? { all: 0, idle: 0 };
  second.all += us;
  if (isIdle(id)) second.idle += us;
  perSecond.set(Math.floor(at / 1e6), second);
  if (at >= fromUs && at < toUs) selfUs.set(id, (selfUs.get(id) ?? 0) + us);
});
if (args.includes('--seconds')) {
  for (const [second, { all, idle }] of perSecond) {
    process.stdout.write(`${String(second).padStart(5)} s  ${(100 - (100 * idle) / Math.max(all, 1)).toFixed(0).padStart(3)} % busy\n`);
  }
  process.exit(0);
}
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);

function packageOf(url: string): string {
  if (url === '') return '(native/V8)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  if (url.startsWith('node:')) return 'node:' + url.slice(5).split('/')[0];
  const dist = url.indexOf('/dist/');
  return dist >= 0
    ? url
        .slice(dist + 6)
        .split('/')
        .slice(0, 2)
        .join('/')
    : url;
}

const label = (n: ProfileNode) =>
  `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\/(node_modules|dist)\//, '')}:${n.callFrame.lineNumber + 1}`;

const bySelf = new Map<string, number>();
const byPackage = new Map<string, number>();
const inclusive = new Map<string, number>();
for (const [id, us] of selfUs) {
  const node = byId.get(id);
  if (!node) continue;
  bySelf.set(label(node), (bySelf.get(label(node)) ?? 0) + us);
  byPackage.set(packageOf(node.callFrame.url), (byPackage.get(packageOf(node.callFrame.url)) ?? 0) + us);
  // Inclusive: every distinct frame on the stack gets the sample once.
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const frame = byId.get(cur);
    if (!frame) break;
    const key = label(frame);
    if (seen.has(key)) continue;
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + us);
  }
}

const pct = (us: number) => `${((100 * us) / total).toFixed(1).padStart(5)}%`;
const list = (title: string, entries: Map<string, number>, n: number) => {
  process.stdout.write(`\n${title}\n`);
  for (const [key, us] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, n)) {
    process.stdout.write(`${pct(us)}  ${(us / 1000).toFixed(0).padStart(7)} ms  ${key}\n`);
  }
};
const window = fromUs > 0 || toUs < Infinity ? ` from ${fromUs / 1e6} s to ${toUs / 1e6} s` : '';
process.stdout.write(`${file}: ${(total / 1e6).toFixed(1)} s sampled${window}\n`);
list('self time by package', byPackage, 20);
list('self time by function', bySelf, top);
list('inclusive time by function', inclusive, top);
