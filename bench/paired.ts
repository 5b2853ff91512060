import { measure } from './measure.js';
import type { ServerProcess } from './processes.js';
import { fixed, table } from './report.js';
import type { Scenario } from './scenarios.js';

/**
 * Paired comparisons: two scenarios measured in alternating slices (A B B A, A B B A), for the ratios the targets
 * are stated in (a partial selection against the full one, the persisted operation against REST, the full snapshot
 * with and without the predicted arrival).
 *
 * Why: the main table runs each scenario once, one after the other, on a machine other work shares. A ratio of two
 * of its rows is as much the change of the machine's load between them as the difference of the two paths (in
 * bench/README.md, the partial selection's ratio to the full one moved from 0.79 to 2.74 between runs of the same
 * commit). Slices in the order A B B A cancel a load that drifts linearly over the pair, and four of them of each
 * scenario average out a burst. Both scenarios have run in the main table first, so both are warm.
 */

export interface Pair {
  /** What the ratio says, e.g. "partial over full". */
  label: string;
  /** Scenario name prefixes: the ratio is a's req/s over b's. */
  a: string;
  b: string;
}

export interface PairResult {
  pair: Pair;
  /** req/s over all of each scenario's slices. */
  aRps: number;
  bRps: number;
  /** Server CPU per answer over all of each scenario's slices, µs. */
  aCpu: number;
  bCpu: number;
  /** a's req/s over b's, in each A B B A block (a's two slices against b's two). */
  blocks: number[];
}

export const PAIRS: readonly Pair[] = [
  { label: 'partial over full', a: 'GraphQL partial', b: 'GraphQL full snapshot' },
  { label: 'persisted over REST', a: 'GraphQL persisted', b: 'REST full snapshot' },
  { label: 'predicted arrival + full over full', a: 'GraphQL predicted arrival', b: 'GraphQL full snapshot' },
];

interface Tally {
  responses: number;
  seconds: number;
  cpuMicros: number;
}

const empty = (): Tally => ({ responses: 0, seconds: 0, cpuMicros: 0 });
const add = (t: Tally, u: Tally): Tally => ({
  responses: t.responses + u.responses,
  seconds: t.seconds + u.seconds,
  cpuMicros: t.cpuMicros + u.cpuMicros,
});

/** Runs each pair whose two scenarios are both in `scenarios`; `blocks` A B B A blocks of `sliceSeconds` slices. */
export async function runPairs(
  scenarios: readonly Scenario[],
  server: (scenario: Scenario) => ServerProcess,
  options: { connections: number; sliceSeconds: number; blocks: number },
): Promise<PairResult[]> {
  const results: PairResult[] = [];
  for (const pair of PAIRS) {
    const a = scenarios.find((s) => s.name.startsWith(pair.a));
    const b = scenarios.find((s) => s.name.startsWith(pair.b));
    if (!a || !b) continue;
    const slice = async (scenario: Scenario): Promise<Tally> => {
      const { load, cpuMicrosPerRequest } = await measure(server(scenario), scenario.next, {
        connections: options.connections,
        seconds: options.sliceSeconds,
        ...(scenario.expected ? { expected: scenario.expected } : {}),
      });
      if (load.errors > 0) throw new Error(`${scenario.name}: ${load.errors} errors in a paired slice`);
      return {
        responses: load.responses,
        seconds: load.responses / load.requestsPerSecond,
        cpuMicros: cpuMicrosPerRequest * load.responses,
      };
    };
    let ta = empty();
    let tb = empty();
    const blocks: number[] = [];
    for (let i = 0; i < options.blocks; i++) {
      const a1 = await slice(a);
      const b1 = await slice(b);
      const b2 = await slice(b);
      const a2 = await slice(a);
      const ba = add(a1, a2);
      const bb = add(b1, b2);
      blocks.push(ba.responses / ba.seconds / (bb.responses / bb.seconds));
      ta = add(ta, ba);
      tb = add(tb, bb);
    }
    results.push({
      pair,
      aRps: ta.responses / ta.seconds,
      bRps: tb.responses / tb.seconds,
      aCpu: ta.cpuMicros / ta.responses,
      bCpu: tb.cpuMicros / tb.responses,
      blocks,
    });
  }
  return results;
}

/** The pairs' table: req/s and server CPU per answer of each side, the ratio, and each block's ratio. */
export function pairsTable(results: readonly PairResult[]): string {
  return table(
    ['pair (a over b)', 'a req/s', 'b req/s', 'a/b req/s', 'blocks a/b', 'a CPU µs', 'b CPU µs', 'b/a CPU'],
    results.map((r) => [
      r.pair.label,
      fixed(r.aRps, 0),
      fixed(r.bRps, 0),
      fixed(r.aRps / r.bRps, 2),
      r.blocks.map((x) => fixed(x, 2)).join(' '),
      fixed(r.aCpu, 0),
      fixed(r.bCpu, 0),
      fixed(r.bCpu / r.aCpu, 2),
    ]),
  );
}
