import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The user documentation: README.md, then docs/*.md in name order. */
export function documentationPages(): { page: string; text: string }[] {
  const root = new URL('../../', import.meta.url);
  const docs = readdirSync(new URL('docs/', root))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs].map((page) => ({ page, text: readFileSync(new URL(page, root), 'utf8') }));
}

/** Every page of the documentation as one text, for tests that look for a snippet wherever it lives. */
export function documentationText(): string {
  return documentationPages()
    .map((p) => p.text)
    .join('\n');
}

/** A fenced block preceded by the line `<!-- doctest -->`: an example the doc tests run. */
export interface DocExample {
  page: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  code: string;
  /** `<!-- doctest file=NAME -->`: the block is saved as NAME in the page's directory (a bundle, a config), not run. */
  file?: string;
}

/** The marked examples of one page, in document order; a marker not followed by a fence is an error. */
export function doctestExamples(page: string, text: string): DocExample[] {
  const lines = text.split('\n');
  const examples: DocExample[] = [];
  for (let i = 0; i < lines.length; i++) {
    const marker = /^<!-- doctest(?: file=([\w.-]+))? -->$/.exec(lines[i]!.trim());
    if (!marker) continue;
    const fence = /^(\s*)```(\w+)\s*$/.exec(lines[i + 1] ?? '');
    if (!fence) throw new Error(`${page}:${i + 1}: <!-- doctest --> must be followed by a fenced block with a language`);
    const indent = fence[1]!.length;
    const body: string[] = [];
    let j = i + 2;
    for (; j < lines.length && lines[j]!.trim() !== '```'; j++) body.push(lines[j]!.slice(indent));
    if (j >= lines.length) throw new Error(`${page}:${i + 2}: unterminated doctest block`);
    examples.push({ page, line: i + 2, lang: fence[2]!, code: `${body.join('\n')}\n`, ...(marker[1] ? { file: marker[1] } : {}) });
    i = j;
  }
  return examples;
}

/** The documentation's Node webhook verification snippet (docs/push.md), loaded as a receiver would paste it. */
export async function documentedVerifier(): Promise<(header: string, body: string, secret: string) => boolean> {
  const snippet = /<!-- webhook-verification-snippet -->\s*(?:<!-- doctest -->\s*)?```js\n([\s\S]*?)```/.exec(documentationText())?.[1];
  if (!snippet) throw new Error('the documentation has no webhook verification snippet');
  const dir = mkdtempSync(join(tmpdir(), 'tt-snippet-'));
  try {
    const file = join(dir, 'verify.mjs');
    writeFileSync(file, snippet);
    return ((await import(pathToFileURL(file).href)) as { verifyTrackingSignature: (h: string, b: string, s: string) => boolean })
      .verifyTrackingSignature;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
