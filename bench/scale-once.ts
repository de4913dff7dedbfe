import { RemoteCluster } from './remote.js';
import { runScale } from './scale.js';
import { parseArgs } from './args.js';
const root = process.argv[2]!;
const quick = process.argv.includes('--quick');
const only = process.argv.find((a) => a.startsWith('--only='))?.slice(7);
const remote = new RemoteCluster();
const opts = parseArgs(quick ? ['--quick'] : ['--runs', '1']) as Exclude<
  ReturnType<typeof parseArgs>,
  'help'
>;
try {
  const r = await runScale(remote, opts, root, (l) => console.log(l), only ? Number(only) : undefined);
  console.log(
    JSON.stringify(
      r.samples.map((s) => ({ ...s, case: s.case.label })),
      null,
      1,
    ),
  );
} finally {
  await remote.close();
}
