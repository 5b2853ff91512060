import { expect } from 'vitest';

/** The `src` and `href` addresses of an HTML page, after asserting that none points to another host. */
export function localPageAssets(html: string): string[] {
  expect(html).not.toMatch(/(src|href)=["']?(https?:)?\/\//);
  return [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string);
}
