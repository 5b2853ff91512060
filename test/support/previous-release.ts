/**
 * Which release an upgrade test starts from, read from the repository alone (issue 48): CHANGELOG.md (Keep a
 * Changelog) has an entry per release, newest first, `## [X.Y.Z] - YYYY-MM-DD`, and a released entry names the
 * commit it was cut from in a `Commit: <40 hex digits>` line. The previous release is the newest entry below the
 * current version's (package.json's `version`). Pure: the caller reads the files.
 */

export interface ChangelogRelease {
  version: string;
  /** The commit the release was built from; undefined when the entry names none (not released yet). */
  commit?: string;
}

const HEADING = /^## \[(\d+\.\d+\.\d+[^\]]*)\]/;
const COMMIT = /^Commit:\s*`?([0-9a-f]{40})`?\s*$/i;

/** The release entries of a changelog, in the file's order (newest first); `[Unreleased]` is not one. */
export function changelogReleases(changelog: string): ChangelogRelease[] {
  const releases: ChangelogRelease[] = [];
  for (const line of changelog.split('\n')) {
    const heading = HEADING.exec(line);
    if (heading) {
      releases.push({ version: heading[1]! });
      continue;
    }
    if (line.startsWith('## ')) {
      // Another level-2 heading ([Unreleased]) ends the entry before it; its lines belong to no release.
      releases.push({ version: '' });
      continue;
    }
    const commit = COMMIT.exec(line.trim());
    const current = releases.at(-1);
    if (commit && current && current.version && !current.commit) current.commit = commit[1]!.toLowerCase();
  }
  return releases.filter((r) => r.version);
}

/**
 * The release before `currentVersion`: the first entry below the current version's. Throws, saying what is
 * wrong, when the current version has no entry or the one below it names no commit.
 */
export function previousRelease(changelog: string, currentVersion: string): { version: string; commit: string } {
  const releases = changelogReleases(changelog);
  const at = releases.findIndex((r) => r.version === currentVersion);
  if (at < 0) {
    throw new Error(
      `CHANGELOG.md has no entry for package.json's version ${currentVersion} (entries: ${releases.map((r) => r.version).join(', ') || 'none'})`,
    );
  }
  const previous = releases[at + 1];
  if (!previous) throw new Error(`CHANGELOG.md has no release below ${currentVersion}`);
  if (!previous.commit) throw new Error(`CHANGELOG.md's entry ${previous.version} names no commit (a line "Commit: <sha>")`);
  return { version: previous.version, commit: previous.commit };
}
