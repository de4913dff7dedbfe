/** Server-side printing: `as=Table` responses (what `kubectl get` asks for). */
import { asRecord } from './meta.js';
import type { ResourceType } from './registry.js';
import type { JsonMap, KObj } from './types.js';

interface Column {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

const NAME_COL: Column = {
  name: 'Name',
  type: 'string',
  format: 'name',
  description:
    'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names',
  priority: 0,
};
const AGE_COL: Column = {
  name: 'Age',
  type: 'string',
  format: '',
  description:
    'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata',
  priority: 0,
};
const col = (name: string, description: string, type = 'string'): Column => ({
  name,
  type,
  format: '',
  description,
  priority: 0,
});

/** duration.HumanDuration, as `kubectl get` shows ages. */
export function humanAge(sinceIso: string, now = Date.now()): string {
  const s = Math.max(0, Math.floor((now - Date.parse(sinceIso)) / 1000));
  if (s < 120) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 10) return s % 60 ? `${m}m${s % 60}s` : `${m}m`;
  if (m < 180) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 8) return m % 60 ? `${h}h${m % 60}m` : `${h}h`;
  if (h < 48) return `${h}h`;
  const d = Math.floor(h / 24);
  if (d < 8) return h % 24 ? `${d}d${h % 24}h` : `${d}d`;
  if (d < 365 * 2) return `${d}d`;
  return `${Math.floor(d / 365)}y${d % 365}d`;
}

type Printer = { columns: Column[]; cells: (o: KObj) => unknown[] };

const age = (o: KObj): string => humanAge(o.metadata.creationTimestamp);

function printer(rt: ResourceType): Printer {
  const key = `${rt.group}/${rt.resource}`;
  switch (key) {
    case '/namespaces':
      return {
        columns: [NAME_COL, col('Status', 'The status of the namespace'), AGE_COL],
        cells: (o) => [o.metadata.name, String(asRecord(o.status).phase ?? ''), age(o)],
      };
    case '/pods':
      return {
        columns: [
          NAME_COL,
          col('Ready', 'The aggregate readiness state of this pod for accepting traffic.'),
          col('Status', 'The aggregate status of the containers in this pod.'),
          col(
            'Restarts',
            'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.',
          ),
          AGE_COL,
        ],
        cells: (o) => [
          o.metadata.name,
          '0/1',
          o.metadata.deletionTimestamp ? 'Terminating' : String(asRecord(o.status).phase ?? ''),
          '0',
          age(o),
        ],
      };
    case '/nodes':
      return {
        columns: [NAME_COL, col('Status', 'The status of the node'), AGE_COL],
        cells: (o) => {
          const conds = Array.isArray(asRecord(o.status).conditions)
            ? (asRecord(o.status).conditions as JsonMap[])
            : [];
          const ready = conds.find((c) => c.type === 'Ready')?.status === 'True';
          return [o.metadata.name, ready ? 'Ready' : 'NotReady', age(o)];
        },
      };
    case 'apiregistration.k8s.io/apiservices':
      return {
        columns: [
          NAME_COL,
          col('Service', 'The reference to the service that hosts this API endpoint.'),
          col('Available', 'Whether this service is available.'),
          AGE_COL,
        ],
        cells: (o) => {
          const svc = asRecord(asRecord(o.spec).service);
          const conds = Array.isArray(asRecord(o.status).conditions)
            ? (asRecord(o.status).conditions as JsonMap[])
            : [];
          const av = conds.find((c) => c.type === 'Available');
          const avail = !av
            ? 'Unknown'
            : av.status === 'True'
              ? 'True'
              : `${String(av.status)} (${String(av.reason)})`;
          return [
            o.metadata.name,
            svc.name ? `${String(svc.namespace)}/${String(svc.name)}` : 'Local',
            avail,
            age(o),
          ];
        },
      };
    default:
      return { columns: [NAME_COL, AGE_COL], cells: (o) => [o.metadata.name, age(o)] };
  }
}

/** A meta.k8s.io/v1 Table; `includeObject` is None, Metadata (default) or Object. */
export function toTable(
  rt: ResourceType,
  items: KObj[],
  listMeta: JsonMap,
  includeObject: string | null,
): JsonMap {
  const p = printer(rt);
  const rows = items.map((o) => {
    const row: JsonMap = { cells: p.cells(o) };
    if (includeObject === 'Object') row.object = o;
    else if (includeObject !== 'None') {
      row.object = { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: o.metadata };
    }
    return row;
  });
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: listMeta,
    columnDefinitions: p.columns,
    rows,
  };
}
