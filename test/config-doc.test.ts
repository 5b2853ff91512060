import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, configurationPage } from '../src/config/variables.js';

/**
 * docs/configuration.md is generated from src/config/variables.ts, the table the parser takes its defaults and
 * bounds from: the committed page must be what the table says, and the table must declare every variable the
 * code reads (and nothing it does not).
 */
const root = new URL('../', import.meta.url);

function sources(dir: string): string[] {
  return readdirSync(new URL(dir, root), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(`${dir}${e.name}/`) : e.name.endsWith('.ts') ? [readFileSync(new URL(`${dir}${e.name}`, root), 'utf8')] : [],
  );
}

describe('docs/configuration.md', () => {
  it('is what src/config/variables.ts generates (npm run -s docs:config)', () => {
    expect(readFileSync(new URL('docs/configuration.md', root), 'utf8')).toBe(configurationPage());
  });

  it('lists every variable the code reads, and only those', () => {
    const code = sources('src/').join('\n');
    const read = new Set<string>();
    for (const m of code.matchAll(/\benv(?:\.|\[')([A-Z][A-Z0-9_]+)/g)) read.add(m[1]!);
    for (const m of code.matchAll(/(?:intVar|boolVar|numberVar|intDefault)\((?:env, )?'([A-Z0-9_]+)'/g)) read.add(m[1]!);
    for (const m of code.matchAll(/`TT_QUOTA_\$\{name\}_(\w+)`/g))
      for (const q of ['LOOKUPS', 'SUBSCRIPTIONS', 'TOKENS']) read.add(`TT_QUOTA_${q}_${m[1]}`);
    const declared = new Set(CONFIG_VARIABLES.map((v) => v.name));
    expect([...read].filter((name) => !declared.has(name)).sort()).toEqual([]);
    expect([...declared].filter((name) => !read.has(name)).sort()).toEqual([]);
  });
});
