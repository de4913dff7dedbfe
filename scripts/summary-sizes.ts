/** `npm run summary-sizes [scenario…]`: run the bundle on each scenario; print summary size and annotations. */
import { runBundle } from '../test/helpers/harness.js';
import { SCENARIOS } from './scenarios.js';

const wanted = process.argv.slice(2);
for (const s of SCENARIOS.filter((x) => wanted.length === 0 || wanted.includes(x.name))) {
  const cluster = s.build();
  const { kubeconfig } = await cluster.start();
  const run = await runBundle({ ...s.inputs, kubeconfig }).finally(() => cluster.stop());
  const levels = { error: 0, warning: 0, notice: 0 };
  for (const line of run.stdout.split('\n')) {
    const m = /^::(error|warning|notice)[ :]/.exec(line);
    if (m) levels[m[1] as keyof typeof levels]++;
  }
  const bytes = Buffer.byteLength(run.summary);
  const lines = run.summary.split('\n').length - 1;
  console.log(
    `${s.name}: summary ${bytes} bytes, ${lines} lines; annotations error ${levels.error}, warning ${levels.warning}, notice ${levels.notice}; result ${run.outputs.result}`,
  );
}
