/** What a release tag publishes: its version, its CHANGELOG.md section, and whether the major tag moves to it. */

/** A release version read from a `vMAJOR.MINOR.PATCH[-PRERELEASE]` tag. */
export interface TagVersion {
  version: string;
  major: number;
  minor: number;
  patch: number;
  prerelease: boolean;
}

/** What the release workflow publishes for one tag. */
export interface ReleasePlan {
  version: string;
  prerelease: boolean;
  /** The moving major tag (`v1`) to point at this release, or '' when it stays where it is. */
  majorTag: string;
  notes: string;
}

const SEMVER_TAG =
  /^v(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)(?:\.(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*))*))?$/;

/** Parse a release tag, or throw naming the tag and the form allowed. */
export function parseTag(tag: string): TagVersion {
  const m = SEMVER_TAG.exec(tag);
  if (!m)
    throw new Error(`tag "${tag}" is not a release tag: use vMAJOR.MINOR.PATCH, e.g. v1.2.3 or v1.3.0-rc.1`);
  return {
    version: tag.slice(1),
    major: Number(m[1]),
    minor: Number(m[2]),
    patch: Number(m[3]),
    prerelease: m[4] !== undefined,
  };
}

const HEADING = /^## \[([^\]]+)\](.*)$/;
const LINK_DEFINITION = /^\[[^\]]+\]:\s/;

/** The body of CHANGELOG.md's `## [version] - YYYY-MM-DD` section, or throw saying what is missing. */
export function changelogSection(changelog: string, version: string): string {
  const lines = changelog.split(/\r?\n/);
  const start = lines.findIndex((l) => HEADING.exec(l)?.[1] === version);
  if (start < 0) {
    throw new Error(
      `CHANGELOG.md has no "## [${version}]" section: move the entries under "## [Unreleased]" into it before tagging`,
    );
  }
  const rest = HEADING.exec(lines[start] ?? '')?.[2] ?? '';
  if (!/^ - \d{4}-\d{2}-\d{2}\s*$/.test(rest)) {
    throw new Error(
      `CHANGELOG.md's "## [${version}]" heading has no release date: write "## [${version}] - YYYY-MM-DD"`,
    );
  }
  const next = lines.findIndex((l, i) => i > start && l.startsWith('## '));
  const body = lines.slice(start + 1, next < 0 ? lines.length : next).filter((l) => !LINK_DEFINITION.test(l));
  const notes = body.join('\n').trim();
  if (notes === '') throw new Error(`CHANGELOG.md's "## [${version}]" section is empty`);
  return notes;
}

/** Whether `version` is the highest stable release of its major among `tags` (tags that are not releases are ignored). */
export function isNewestOfMajor(version: TagVersion, tags: string[]): boolean {
  const newer = tags
    .flatMap((t) => (SEMVER_TAG.test(t) ? [parseTag(t)] : []))
    .find(
      (t) =>
        !t.prerelease &&
        t.major === version.major &&
        (t.minor > version.minor || (t.minor === version.minor && t.patch > version.patch)),
    );
  return newer === undefined;
}

/** Check the tag against package.json and CHANGELOG.md and decide what to publish; throws on any disagreement. */
export function releasePlan(
  tag: string,
  packageVersion: string,
  changelog: string,
  tags: string[],
): ReleasePlan {
  const parsed = parseTag(tag);
  if (parsed.version !== packageVersion) {
    throw new Error(
      `tag ${tag} names version ${parsed.version} but package.json says ${packageVersion}: set "version" to ${parsed.version} and tag that commit`,
    );
  }
  const moves = !parsed.prerelease && isNewestOfMajor(parsed, tags);
  return {
    version: parsed.version,
    prerelease: parsed.prerelease,
    majorTag: moves ? `v${parsed.major}` : '',
    notes: changelogSection(changelog, parsed.version),
  };
}

/** The plan as `$GITHUB_OUTPUT` lines; the notes go in a heredoc whose delimiter they do not contain. */
export function githubOutput(plan: ReleasePlan, delimiter: string): string {
  if (plan.notes.includes(delimiter)) throw new Error('the release notes contain the output delimiter');
  return [
    `version=${plan.version}`,
    `prerelease=${plan.prerelease}`,
    `major-tag=${plan.majorTag}`,
    `notes<<${delimiter}`,
    plan.notes,
    delimiter,
    '',
  ].join('\n');
}
