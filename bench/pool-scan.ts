/**
 * The other honest peer of our scan, as a finalizer-focused kubectl plugin does it: legacy discovery (`/api`, `/apis`,
 * then every group-version document), then a metadata-only, paginated LIST of every namespaced listable type, a
 * small pool at a time, over one keep-alive HTTPS agent with gzip. No targeting from the namespace's conditions, no
 * aggregated discovery, no diagnosis: it finds the objects that hold finalizers and stops.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { Agent, request } from 'node:https';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { mapPool } from '../src/shared/map-pool.js';

/** Requests in flight at once: the same as our snapshot's pool, so that only the approach differs. */
export const POOL = 8;
const JSON_TYPE = 'application/json';
const METADATA = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';
const unzip = promisify(gunzip);

export interface PoolScanResult {
  types: number;
  objects: number;
  withFinalizers: number;
  /** Discovery requests (`/api`, `/apis` and one per group-version) and LIST pages. */
  discovery: number;
  pages: number;
}

interface ResourceList {
  resources?: { name: string; namespaced?: boolean; verbs?: string[] }[];
}
interface GroupList {
  groups?: { preferredVersion?: { groupVersion?: string } }[];
}
interface MetadataPage {
  items?: { metadata?: { finalizers?: string[] } }[];
  metadata?: { continue?: string };
}

type Get = (path: string, accept: string) => Promise<unknown>;

function getter(kc: KubeConfig, agent: Agent): Get {
  const server = kc.getCurrentCluster()!.server;
  const token = kc.getCurrentUser()?.token ?? '';
  return (path, accept) =>
    new Promise((resolve, reject) => {
      const headers = { accept, authorization: `Bearer ${token}`, 'accept-encoding': 'gzip' };
      const req = request(new URL(path, server), { agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          const body = res.headers['content-encoding'] === 'gzip' ? unzip(raw) : Promise.resolve(raw);
          body.then((b) => {
            if ((res.statusCode ?? 0) >= 400) reject(new Error(`GET ${path}: ${res.statusCode}`));
            else resolve(JSON.parse(b.toString('utf8')));
          }, reject);
        });
      });
      req.on('error', reject);
      req.end();
    });
}

/** Legacy discovery: every listable namespaced type's list path in `namespace`. */
async function listPaths(
  get: Get,
  namespace: string,
  pool: number,
): Promise<{ paths: string[]; discovery: number }> {
  const groups = (await Promise.all([get('/api', JSON_TYPE), get('/apis', JSON_TYPE)]))[1] as GroupList;
  const gvs = [
    '/api/v1',
    ...(groups.groups ?? []).flatMap((g) =>
      g.preferredVersion?.groupVersion ? [`/apis/${g.preferredVersion.groupVersion}`] : [],
    ),
  ];
  const docs = await mapPool(gvs, pool, (gv) => get(gv, JSON_TYPE) as Promise<ResourceList>);
  const paths = docs.flatMap((doc, i) =>
    (doc.resources ?? [])
      .filter((r) => r.namespaced && !r.name.includes('/') && (r.verbs ?? []).includes('list'))
      .map((r) => `${gvs[i]}/namespaces/${namespace}/${r.name}`),
  );
  return { paths, discovery: 2 + gvs.length };
}

/** Scan `namespace` the plugin way; returns what it found. */
export async function poolScan(kc: KubeConfig, namespace: string, pool = POOL): Promise<PoolScanResult> {
  const ca = kc.getCurrentCluster()?.caData;
  const agent = new Agent({
    keepAlive: true,
    maxSockets: pool,
    ca: ca ? Buffer.from(ca, 'base64') : undefined,
  });
  const get = getter(kc, agent);
  try {
    const { paths, discovery } = await listPaths(get, namespace, pool);
    const result: PoolScanResult = {
      types: paths.length,
      objects: 0,
      withFinalizers: 0,
      discovery,
      pages: 0,
    };
    await mapPool(paths, pool, async (path) => {
      let next: string | undefined = '';
      while (next !== undefined) {
        const query = `?limit=500${next ? `&continue=${encodeURIComponent(next)}` : ''}`;
        const page = (await get(path + query, METADATA)) as MetadataPage;
        result.pages++;
        for (const item of page.items ?? []) {
          result.objects++;
          if (item.metadata?.finalizers?.length) result.withFinalizers++;
        }
        next = page.metadata?.continue || undefined;
      }
    });
    return result;
  } finally {
    agent.destroy();
  }
}
