/**
 * Releases (docs/upgrading.md, CHANGELOG.md).
 *
 * VERSION is this release's version, as package.json states it (test/release.test.ts holds the two equal).
 * `tracking --version`, `/ready`, the JSON start line and the metric `tt_build_info` show it, and every
 * instance's heartbeat records it, so that `tracking upgrade finish` can see an older release still running.
 */
export const VERSION = '0.5.0';

/**
 * The release before this one: the release a rolling upgrade to VERSION starts from. Its instances record no
 * heartbeat (heartbeats came with 0.5.0), so `tracking upgrade finish` cannot see them and asks the operator to
 * say they are stopped (docs/upgrading.md, What finish does).
 */
export const PREVIOUS_VERSION = '0.4.0';

/** Negative, zero or positive as semver `a` is older than, the same as or newer than `b` (x.y.z; a pre-release is older). */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const [core = '', pre] = v.split('+')[0]!.split(/-(.*)/s);
    return { parts: core.split('.').map((n) => Number.parseInt(n, 10) || 0), pre };
  };
  const x = parse(a);
  const y = parse(b);
  for (let i = 0; i < 3; i++) {
    const d = (x.parts[i] ?? 0) - (y.parts[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  if (x.pre === y.pre) return 0;
  if (x.pre === undefined) return 1;
  if (y.pre === undefined) return -1;
  return x.pre < y.pre ? -1 : 1;
}
