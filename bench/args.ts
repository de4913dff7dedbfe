/** Command-line options of `npm run bench` and the sizes they select. Pure. */
import type { BigSizes } from './protocol.js';

/** Scenario 1's sizes, and: */
export interface Sizes extends BigSizes {
  /** Scenario 2: targets torn down at once, and the smaller count for the linearity check. */
  namespaces: number;
  linearity: number;
  /** Release delays of the namespaces that go on their own, spread evenly from first to last. */
  releaseFromMs: number;
  releaseToMs: number;
  /** force-after of the run (the stuck ones end when forcing removes their finalizer). */
  forceAfter: string;
  /** Scenario 4: child processes per measurement. */
  startupReps: number;
}

export interface Options {
  latencyMs: number;
  runs: number;
  /** Runs of the kubectl recipe (slow: one kubectl process per type). */
  kubectlRuns: number;
  quick: boolean;
  /** `--smoke`: the smallest sizes that still fill every table (the test suite's check that the bench runs). */
  smoke: boolean;
  /** Where BENCHMARKS.md goes; undefined = the default for the mode. */
  out?: string;
  /** Run only these sections and print them (no BENCHMARKS.md); undefined = all. */
  only?: ReadonlySet<Section>;
  sizes: Sizes;
}

/** The sections `--only` can pick: section 1 with 1b, 5 with 5b, 8, 10 and 11. */
export const SECTIONS = ['big', 'real', 'sweep', 'fleet', 'settle'] as const;
export type Section = (typeof SECTIONS)[number];

export const FULL: Sizes = {
  types: 150,
  groups: 40,
  configMaps: 5000,
  configMapBytes: 4096,
  customResources: 200,
  withFinalizers: 5,
  namespaces: 50,
  linearity: 10,
  releaseFromMs: 300,
  releaseToMs: 2500,
  forceAfter: '4s',
  startupReps: 10,
};

export const QUICK: Sizes = {
  types: 10,
  groups: 4,
  configMaps: 200,
  configMapBytes: 4096,
  customResources: 20,
  withFinalizers: 3,
  namespaces: 5,
  linearity: 2,
  releaseFromMs: 200,
  releaseToMs: 800,
  forceAfter: '2s',
  startupReps: 3,
};

/** `--smoke`: a tenth of the quick sizes, one start-up sample, no kubectl recipe runs. */
export const SMOKE: Sizes = {
  ...QUICK,
  types: 3,
  groups: 2,
  configMaps: 20,
  customResources: 4,
  withFinalizers: 1,
  namespaces: 3,
  linearity: 2,
  startupReps: 1,
};

export const USAGE = `Usage: npm run bench -- [options]

  --latency MS       per-request latency of the fake API server (default 5)
  --runs N           repetitions of each measurement; the median is reported (default 3, 1 with --quick)
  --kubectl-runs N   repetitions of the kubectl recipe (default: --runs)
  --quick            small sizes, finishes in well under a minute; writes to a temp file unless --out
  --smoke            smaller still, no kubectl recipe runs: only checks that every section runs (npm test)
  --out FILE         where to write the report (default BENCHMARKS.md)
  --only LIST        run only these sections and print them, writing no report: big (sections 1 and 1b),
                     real (sections 5 and 5b, the real 1.20 control plane when it can be found), sweep
                     (section 8), fleet (section 10: the merge of 50 clusters' reports; needs npm run build),
                     settle (section 11: time to the answer, with its real-server row); comma-separated
  --help             this text`;

function positiveInt(name: string, raw: string | undefined, allowZero = false): number {
  const n = Number(raw);
  if (raw === undefined || !Number.isInteger(n) || n < (allowZero ? 0 : 1)) {
    throw new Error(
      `${name} needs a ${allowZero ? 'non-negative' : 'positive'} integer, got ${raw ?? 'nothing'}`,
    );
  }
  return n;
}

/** Parse argv (without node and script); throws with a message on a bad option. `help` when asked. */
export function parseArgs(argv: readonly string[]): Options | 'help' {
  let latencyMs = 5;
  let runs: number | undefined;
  let kubectlRuns: number | undefined;
  let quick = false;
  let smoke = false;
  let out: string | undefined;
  let only: Set<Section> | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? arg.split(/=(.*)/s) : [arg, undefined];
    const value = (): string | undefined => inline ?? argv[++i];
    switch (flag) {
      case '--latency':
        latencyMs = positiveInt('--latency', value(), true);
        break;
      case '--runs':
        runs = positiveInt('--runs', value());
        break;
      case '--kubectl-runs':
        kubectlRuns = positiveInt('--kubectl-runs', value(), true);
        break;
      case '--quick':
        quick = true;
        break;
      case '--smoke':
        quick = true;
        smoke = true;
        break;
      case '--out': {
        const v = value();
        if (!v) throw new Error('--out needs a file name');
        out = v;
        break;
      }
      case '--only': {
        const names = (value() ?? '').split(',').filter(Boolean);
        const bad = names.find((n) => !(SECTIONS as readonly string[]).includes(n));
        if (names.length === 0 || bad !== undefined)
          throw new Error(`--only needs sections out of ${SECTIONS.join(', ')}, got ${bad ?? 'nothing'}`);
        only = new Set(names as Section[]);
        break;
      }
      case '--help':
      case '-h':
        return 'help';
      default:
        throw new Error(`unknown option ${arg}`);
    }
  }
  const r = runs ?? (quick ? 1 : 3);
  const sizes = smoke ? SMOKE : quick ? QUICK : FULL;
  const kubectl = kubectlRuns ?? (smoke ? 0 : r);
  return { latencyMs, runs: r, kubectlRuns: kubectl, quick, smoke, out, only, sizes };
}
