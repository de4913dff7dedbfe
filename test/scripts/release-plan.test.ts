import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import {
  changelogSection,
  githubOutput,
  isNewestOfMajor,
  parseTag,
  releasePlan,
} from '../../scripts/release-plan.js';

const CHANGELOG = `# Changelog

Intro text.

## [Unreleased]

- Not released yet.

## [2.1.0] - 2027-03-02

### Added

- The \`sweep\` input.

### Fixed

- A summary line.

## [2.0.0] - 2027-01-10

### Changed

- Breaking: outputs renamed.

[Unreleased]: https://github.com/o/r/compare/v2.1.0...HEAD
[2.1.0]: https://github.com/o/r/compare/v2.0.0...v2.1.0
[2.0.0]: https://github.com/o/r/releases/tag/v2.0.0
`;

describe('parseTag', () => {
  test.each([
    {
      name: 'a release',
      given: 'v2.1.0',
      expect: { version: '2.1.0', major: 2, minor: 1, patch: 0, prerelease: false },
    },
    {
      name: 'a prerelease',
      given: 'v3.0.0-rc.1',
      expect: { version: '3.0.0-rc.1', major: 3, minor: 0, patch: 0, prerelease: true },
    },
    {
      name: 'two-digit parts',
      given: 'v10.20.30',
      expect: { version: '10.20.30', major: 10, minor: 20, patch: 30, prerelease: false },
    },
  ])('$name', ({ given, expect: want }) => {
    expect(parseTag(given)).toEqual(want);
  });

  test.each(['1.2.3', 'v1.2', 'v1', 'v01.2.3', 'v1.2.3-', 'v1.2.3 ', 'release-1.2.3'])(
    'refuses %j',
    (tag) => {
      expect(() => parseTag(tag)).toThrow(`tag "${tag}" is not a release tag: use vMAJOR.MINOR.PATCH`);
    },
  );
});

describe('changelogSection', () => {
  test('is the section of that version, up to the next version, without the headings around it', () => {
    expect(changelogSection(CHANGELOG, '2.1.0')).toBe(
      '### Added\n\n- The `sweep` input.\n\n### Fixed\n\n- A summary line.',
    );
  });

  test('the last section stops before the link definitions', () => {
    expect(changelogSection(CHANGELOG, '2.0.0')).toBe('### Changed\n\n- Breaking: outputs renamed.');
  });

  test('a version that is only a prefix of a heading is not found', () => {
    expect(() => changelogSection(CHANGELOG, '2.1')).toThrow('CHANGELOG.md has no "## [2.1]" section');
  });

  test('a version still under Unreleased says to move the entries', () => {
    expect(() => changelogSection(CHANGELOG, '2.2.0')).toThrow(
      'move the entries under "## [Unreleased]" into it before tagging',
    );
  });

  test('a section without a release date is refused', () => {
    expect(() => changelogSection('## [1.0.0]\n\n- x\n', '1.0.0')).toThrow(
      'heading has no release date: write "## [1.0.0] - YYYY-MM-DD"',
    );
  });

  test('an empty section is refused', () => {
    expect(() =>
      changelogSection('## [1.0.0] - 2026-01-01\n\n## [0.9.0] - 2025-12-01\n- y\n', '1.0.0'),
    ).toThrow('section is empty');
  });

  test('CRLF line ends read the same', () => {
    expect(changelogSection(CHANGELOG.replace(/\n/g, '\r\n'), '2.0.0')).toBe(
      '### Changed\n\n- Breaking: outputs renamed.',
    );
  });
});

describe('isNewestOfMajor', () => {
  const tags = ['v1', 'v1.4.2', 'v2', 'v2.0.0', 'v2.1.0', 'v2.2.0-rc.1', 'v3.0.0', 'latest'];
  test.each([
    { name: 'the highest of its major', given: 'v2.1.0', expect: true },
    { name: 'a patch of an older minor', given: 'v2.0.1', expect: false },
    {
      name: 'a patch of the newest minor, though a prerelease of the next exists',
      given: 'v2.1.1',
      expect: true,
    },
    { name: 'a patch of an older major', given: 'v1.4.3', expect: true },
    { name: 'an older patch of an older major', given: 'v1.4.1', expect: false },
    { name: 'the first of a new major', given: 'v4.0.0', expect: true },
  ])('$name', ({ given, expect: want }) => {
    expect(isNewestOfMajor(parseTag(given), tags)).toBe(want);
  });
});

describe('releasePlan', () => {
  test('a release that is the newest of its major moves the major tag and carries its notes', () => {
    expect(releasePlan('v2.1.0', '2.1.0', CHANGELOG, ['v2.0.0', 'v2.1.0'])).toEqual({
      version: '2.1.0',
      prerelease: false,
      majorTag: 'v2',
      notes: changelogSection(CHANGELOG, '2.1.0'),
    });
  });

  test('an older line released after a newer one leaves the major tag alone', () => {
    expect(releasePlan('v2.0.0', '2.0.0', CHANGELOG, ['v2.1.0']).majorTag).toBe('');
  });

  test('a prerelease never moves the major tag', () => {
    const changelog = '## [3.0.0-rc.1] - 2027-04-01\n\n- Candidate.\n';
    expect(releasePlan('v3.0.0-rc.1', '3.0.0-rc.1', changelog, [])).toMatchObject({
      prerelease: true,
      majorTag: '',
    });
  });

  test('a tag that disagrees with package.json is refused, naming both versions', () => {
    expect(() => releasePlan('v2.1.0', '2.0.0', CHANGELOG, [])).toThrow(
      'tag v2.1.0 names version 2.1.0 but package.json says 2.0.0',
    );
  });

  test("this repository's package.json version has a dated CHANGELOG.md section to release", () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    const plan = releasePlan(`v${version}`, version, readFileSync('CHANGELOG.md', 'utf8'), []);
    expect(plan.notes).toMatch(/^### (Added|Changed|Deprecated|Removed|Fixed|Security)$/m);
    expect(plan.majorTag).toBe(`v${version.split('.')[0]}`);
  });
});

describe('githubOutput', () => {
  const plan = { version: '2.1.0', prerelease: false, majorTag: 'v2', notes: '- a\n- b' };

  test('writes each field and the notes as a heredoc', () => {
    expect(githubOutput(plan, 'EOF_x')).toBe(
      'version=2.1.0\nprerelease=false\nmajor-tag=v2\nnotes<<EOF_x\n- a\n- b\nEOF_x\n',
    );
  });

  test('refuses notes that contain the delimiter, which would end the value early', () => {
    expect(() => githubOutput({ ...plan, notes: 'x\nEOF_x\ny' }, 'EOF_x')).toThrow(
      'contain the output delimiter',
    );
  });
});

describe('scripts/release.ts, as the release workflow runs it', () => {
  const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
  const release = (tag: string) => spawnSync('npx', ['tsx', 'scripts/release.ts', tag], { encoding: 'utf8' });

  test("prints $GITHUB_OUTPUT lines for package.json's version", () => {
    const r = release(`v${version}`);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(
      new RegExp(
        `^version=${version.replace(/\./g, '\\.')}\nprerelease=false\nmajor-tag=(v\\d+)?\nnotes<<(ghadelimiter_[0-9a-f-]{36})\n[^]+\n\\2\n$`,
      ),
    );
  });

  test('fails with one line on stderr and nothing for $GITHUB_OUTPUT when the tag is another version', () => {
    const r = release('v999.0.0');
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      `release check failed: tag v999.0.0 names version 999.0.0 but package.json says ${version}`,
    );
  });
});
