import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentationPages } from './support/docs.js';

/** Every relative link of README.md and docs/*.md reaches a file of the repository, and its #anchor a heading there. */
const ROOT = new URL('../', import.meta.url).pathname;

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function anchors(markdown: string): Set<string> {
  const found = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.trim().startsWith('```')) fenced = !fenced;
    const heading = !fenced && /^#{1,6} (.*)$/.exec(line);
    if (heading) {
      found.add(
        heading[1]!
          .trim()
          .toLowerCase()
          .replace(/[^\w\- ]/g, '')
          .replace(/ /g, '-'),
      );
    }
  }
  return found;
}

describe('documentation links', () => {
  const broken: string[] = [];
  let checked = 0;
  for (const { page, text } of documentationPages()) {
    const prose = text.replace(/```[\s\S]*?```/g, '');
    for (const [, target] of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^(https?:|mailto:)/.test(target!)) continue;
      checked += 1;
      const [path, anchor] = target!.split('#') as [string, string | undefined];
      const file = path === '' ? join(ROOT, page) : normalize(join(ROOT, dirname(page), path));
      if (!existsSync(file)) broken.push(`${page}: ${target} (no such file)`);
      else if (anchor && file.endsWith('.md') && !anchors(readFileSync(file, 'utf8')).has(anchor)) {
        broken.push(`${page}: ${target} (no such heading)`);
      }
    }
  }
  it('reach what they name', () => {
    expect(checked).toBeGreaterThan(50);
    expect(broken).toEqual([]);
  });
});
