import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diagnose } from '../../src/diagnosis/index.js';
import { shellQuote } from '../../src/diagnosis/shell.js';
import { finalizeNamespaceCommand } from '../../src/diagnosis/remedy.js';
import type { Finding } from '../../src/model/findings.js';
import { KIALIS, conditions, leftover, namespace, snapshot } from './fixtures.js';

/**
 * Hostile names, finalizers and messages: findings carry them verbatim (escaping for Markdown/HTML is the report
 * layer's job), and every remedy command, pasted into a shell, passes them as plain arguments.
 */

const dir = mkdtempSync(join(tmpdir(), 'hostile-'));
const marker = join(dir, 'pwned');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const EVIL_NAME = `k$(touch ${marker})'x"; touch ${marker}; echo \``;
const EVIL_FINALIZER = `evil.example.com/$(touch ${marker})' && touch ${marker} #`;
const EVIL_MESSAGE = `Some resources are remaining: kialis.kiali.io has 1 resource instances<script>alert(1)</script>\n| table | break |`;
const EVIL_NS = `ns'$(touch ${marker})`;

/**
 * Runs a command with `kubectl`, `jq` and `xargs` replaced by functions that record their argv, one file per call
 * (pipeline stages run concurrently), and returns the recorded argvs.
 */
function runRecorded(command: string): string[][] {
  const calls = mkdtempSync(join(dir, 'calls-'));
  const record = `f=$(mktemp ${shellQuote(calls)}/call-XXXXXX); printf '%s\\0' "$@" > "$f"`;
  execFileSync(
    'sh',
    ['-c', `kubectl() { ${record}; }; jq() { ${record}; }; xargs() { ${record}; }; ${command}`],
    {
      stdio: 'pipe',
    },
  );
  return readdirSync(calls).map((f) => readFileSync(join(calls, f), 'utf8').split('\0').slice(0, -1));
}

function findingsWithHostileText(): Finding[] {
  return diagnose(
    snapshot({
      namespace: namespace({
        name: EVIL_NS,
        metadataFinalizers: [EVIL_FINALIZER],
        specFinalizers: ['kubernetes', EVIL_FINALIZER],
        conditions: conditions({ NamespaceContentRemaining: ['SomeResourcesRemain', EVIL_MESSAGE] }),
      }),
      leftovers: [leftover(KIALIS, { name: EVIL_NAME, finalizers: [EVIL_FINALIZER], uid: 'u1' }, EVIL_NS)],
    }),
  );
}

describe('hostile text', () => {
  const findings = findingsWithHostileText();

  it('is preserved verbatim in evidence and summaries', () => {
    const text = JSON.stringify(findings);
    expect(text).toContain(JSON.stringify(EVIL_NAME).slice(1, -1));
    expect(text).toContain(JSON.stringify(EVIL_FINALIZER).slice(1, -1));
    const conditionsFinding = findings.find((f) => f.id === 'controller-conditions');
    expect(conditionsFinding?.evidence.map((e) => e.value)).toContain(
      `True SomeResourcesRemain: ${EVIL_MESSAGE}`,
    );
    const object = findings.find((f) => f.id === 'object-finalizers');
    expect(object?.summary).toContain(EVIL_NAME);
    expect(object?.evidence[0]?.value).toBe(JSON.stringify([EVIL_FINALIZER]));
  });

  it('cannot inject through any remedy command, and each command passes the names intact', () => {
    const commands = findings.flatMap((f) => [
      ...f.remedy.commands,
      ...(f.remedy.bulk ?? []),
      ...(f.remedy.lastResort?.commands ?? []),
      ...(f.remedy.lastResort?.bulk ?? []),
    ]);
    expect(commands.length).toBeGreaterThanOrEqual(6);
    for (const command of commands) runRecorded(command);
    expect(existsSync(marker)).toBe(false);

    const bulk = findings.find((f) => f.id === 'finalizer-owner-gone')?.remedy.bulk?.[0] ?? '';
    expect(runRecorded(bulk)).toContainEqual([
      '-r',
      'kubectl',
      'patch',
      '-n',
      EVIL_NS,
      '--type=json',
      '-p',
      JSON.stringify([
        { op: 'test', path: '/metadata/finalizers/0', value: EVIL_FINALIZER },
        { op: 'remove', path: '/metadata/finalizers/0' },
      ]),
    ]);
    const patch = findings.find((f) => f.id === 'object-finalizers')?.remedy.lastResort?.commands[0] ?? '';
    const [argv] = runRecorded(patch);
    expect(argv?.slice(0, 5)).toEqual(['patch', 'kialis.kiali.io', EVIL_NAME, '-n', EVIL_NS]);
    expect(JSON.parse(argv?.[7] ?? '')).toEqual([
      { op: 'test', path: '/metadata/uid', value: 'u1' },
      { op: 'test', path: '/metadata/finalizers/0', value: EVIL_FINALIZER },
      { op: 'remove', path: '/metadata/finalizers/0' },
    ]);
  });

  it('the /finalize pipeline hands the finalizer to jq as data, not as program text', () => {
    const calls = runRecorded(finalizeNamespaceCommand(EVIL_NS, [EVIL_FINALIZER]));
    expect(calls).toContainEqual(['get', 'namespace', EVIL_NS, '-o', 'json']);
    expect(calls).toContainEqual([
      '--arg',
      'f0',
      EVIL_FINALIZER,
      '.spec.finalizers |= map(select(. != $f0))',
    ]);
    expect(calls).toContainEqual([
      'replace',
      '--raw',
      `/api/v1/namespaces/${encodeURIComponent(EVIL_NS)}/finalize`,
      '-f',
      '-',
    ]);
    expect(existsSync(marker)).toBe(false);
  });

  it.each([
    { name: 'plain word', given: 'kiali.io/finalizer', expect: 'kiali.io/finalizer' },
    { name: 'empty', given: '', expect: "''" },
    { name: 'space', given: 'a b', expect: "'a b'" },
    { name: 'single quote', given: "it's", expect: `'it'\\''s'` },
    { name: 'command substitution', given: '$(id)', expect: "'$(id)'" },
    { name: 'newline', given: 'a\nb', expect: "'a\nb'" },
  ])('shellQuote: $name', ({ given, expect: want }) => {
    expect(shellQuote(given)).toBe(want);
  });
});
