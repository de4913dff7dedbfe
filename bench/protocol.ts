/** What the bench's main thread and the fake API server's worker thread say to each other. Data only. */
import type { ControllerTiming, RequestRecord } from '../test/fake-apiserver/index.js';

/** The size of the big namespace of scenario 1 (and of section 5's, built on a real server). */
export interface BigSizes {
  /** Namespaced CRD types, spread round-robin over `groups` API groups. */
  types: number;
  groups: number;
  configMaps: number;
  /** Size of each ConfigMap's payload. */
  configMapBytes: number;
  /** Custom resources, spread round-robin over the types. */
  customResources: number;
  /** How many of them (each in another type) hold a finalizer. */
  withFinalizers: number;
}

/** The big namespace of scenario 1. */
export interface BigSpec extends BigSizes {
  kind: 'big';
  namespace: string;
}

/** The CRD types of the big namespace, round-robin over its groups (served at `v1`). */
export function bigTypes(spec: BigSizes): { group: string; kind: string; plural: string }[] {
  return Array.from({ length: spec.types }, (_, i) => ({
    group: `g${String(i % spec.groups).padStart(2, '0')}.bench.example.com`,
    kind: `Widget${i}`,
    plural: `widget${i}s`,
  }));
}

/** ConfigMap `i` of the big namespace: a realistic 4 KiB payload, an application.properties-like text, different per object. */
export function bigConfigMap(
  spec: BigSizes,
  i: number,
): { name: string; labels: Record<string, string>; body: string } {
  const line = 'feature.flag.name=some-reasonably-long-configuration-value-0123456789\n';
  const name = `app-config-${String(i).padStart(5, '0')}`;
  const body = `# ${name}\n${line.repeat(Math.ceil(spec.configMapBytes / line.length))}`.slice(
    0,
    spec.configMapBytes,
  );
  return { name, labels: { app: 'shop', 'app.kubernetes.io/instance': `preview-${i % 7}` }, body };
}

/** One target of scenario 2. */
export interface ManyTarget {
  name: string;
  /**
   * `release`: its Gadget holds a finalizer that the simulated operator removes `releaseMs` after the namespace
   * controller marked the Gadget for deletion. `stuck`: the finalizer is never removed (only forcing ends it).
   */
  kind: 'release' | 'stuck';
  releaseMs: number;
}

/** The namespaces of scenario 2 (and 3). */
export interface ManySpec {
  kind: 'many';
  targets: ManyTarget[];
  /** Namespace controller timing. */
  controller: ControllerTiming;
}

/** One namespace with `objects` custom resources that all hold a leaked finalizer (forcing at scale). */
export interface LeakedSpec {
  kind: 'leaked';
  namespace: string;
  objects: number;
}

/** The scale scenario: many target names, some of which exist; a few of those are held by a leaked finalizer. */
export interface ScaleSpec {
  kind: 'scale';
  /** Target names, in order (`scaleName(i)`). */
  names: number;
  /** How many of them exist, spread evenly over the names. */
  existing: number;
  /** How many of the existing ones hold a Gadget with a finalizer nobody removes. */
  stuck: number;
  controller: ControllerTiming;
}

export type ScenarioSpec = BigSpec | ManySpec | LeakedSpec | ScaleSpec;

/** The name of target `i` of the scale scenario. */
export function scaleName(i: number): string {
  return `pr-${String(i + 1).padStart(5, '0')}`;
}

/** Whether target `i` of `spec` exists (spread evenly over the names), and whether it is held by the leaked finalizer. */
export function scaleKind(
  spec: Pick<ScaleSpec, 'names' | 'existing' | 'stuck'>,
  i: number,
): 'missing' | 'stuck' | 'existing' {
  const stride = Math.max(1, Math.floor(spec.names / Math.max(1, spec.existing)));
  if (i % stride !== 0 || i / stride >= spec.existing) return 'missing';
  const k = i / stride;
  const stuckStride = spec.stuck > 0 ? Math.max(1, Math.floor(spec.existing / spec.stuck)) : Infinity;
  return k % stuckStride === 0 && k / stuckStride < spec.stuck ? 'stuck' : 'existing';
}

/** A request as the fake logged it, without its body. */
export type LoggedRequest = Pick<
  RequestRecord,
  'method' | 'path' | 'query' | 'status' | 'bytesOut' | 'bodyBytes' | 'at' | 'accept'
>;

export type Command =
  | { op: 'start'; spec: ScenarioSpec; latencyMs: number }
  | { op: 'stop' }
  | { op: 'mark' }
  | { op: 'requests'; from: number }
  | { op: 'throttle'; times: number; retryAfterSeconds: number }
  | { op: 'removals' }
  | { op: 'busy' }
  | { op: 'fastLists'; on: boolean }
  | { op: 'latency'; ms: number }
  | { op: 'controllerPass'; namespace: string }
  | { op: 'inFlight' };

export interface Started {
  url: string;
  kubeconfig: string;
  /** Namespaced types the big scenario registered (CRDs), for the report. */
  crdTypes: number;
}

/** Event-loop time of the server thread since the previous `busy` call. */
export interface Busy {
  activeMs: number;
  wallMs: number;
}

/** The most requests the server had open at once since `start` (watches counted apart: they stay open). */
export interface InFlight {
  requests: number;
  watches: number;
}

/** Results per op. */
export interface Results {
  start: Started;
  stop: null;
  mark: number;
  requests: LoggedRequest[];
  throttle: null;
  /** Namespace name → server time (ms since epoch) at which the store removed it. */
  removals: Record<string, number>;
  busy: Busy;
  fastLists: null;
  latency: null;
  controllerPass: null;
  inFlight: InFlight;
}

export type Request = Command & { id: number };
export type Reply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: string };

export const GADGET = { group: 'ops.bench.example.com', version: 'v1', resource: 'gadgets' } as const;
export const RELEASE_FINALIZER = 'ops.bench.example.com/cleanup';
export const STUCK_FINALIZER = 'ops.bench.example.com/leaked';
export const RELEASE_ANNOTATION = 'bench.example.com/cleanup-ms';
export const BIG_FINALIZER = 'bench.example.com/cleanup';
export const LEAKED = { group: 'leak.bench.example.com', version: 'v1', resource: 'widgets' } as const;
export const LEAKED_FINALIZER = 'leak.bench.example.com/cleanup';
