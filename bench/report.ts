/** Plain-text tables for the bench output. */

export function table(headers: string[], rows: (string | number)[][]): string {
  const cells = [headers, ...rows.map((r) => r.map(String))];
  const widths = headers.map((_, c) => Math.max(...cells.map((r) => (r[c] ?? '').length)));
  const line = (r: string[]) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0))).join('  ');
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(cells[0] ?? []), rule, ...cells.slice(1).map(line)].join('\n');
}

export const fixed = (n: number, digits = 1): string => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
export const thousands = (n: number): string => Math.round(n).toLocaleString('en-US');
