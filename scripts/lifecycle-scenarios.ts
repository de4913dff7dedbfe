/**
 * The preview lifecycle's four paths, each run through the action's bundle (`npm run build` first) as the runner
 * runs it, against the fake cluster and the GitHub stand-in: the job summary each one leaves, for the pictures.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TTL_ANNOTATION } from '../src/model/lifecycle.js';
import {
  FAST,
  FakeCluster,
  addKialiCR,
  addKialiCRD,
  kustomizationBody,
} from '../test/fake-apiserver/index.js';
import { FakeGitHub } from '../test/github/fake-github.js';
import { issueCommentEvent } from '../test/github/helpers.js';
import { runBundle } from '../test/helpers/harness.js';
import { tempDir } from '../test/helpers/temp.js';

const TOKEN = 'ghs_picture-token';
const LABEL = 'preview.example.com/pr';
const daysAgo = (d: number): string => new Date(Date.now() - d * 86_400_000).toISOString();

export interface LifecycleScenario {
  name: string;
  title: string;
  /** The summary the bundle wrote. */
  run: () => Promise<string>;
}

/** Run the bundle with `inputs` and the event `event` (its name and payload) against `cluster` and `gh`. */
async function bundle(
  cluster: FakeCluster,
  gh: FakeGitHub,
  inputs: Record<string, string>,
  event: { name: string; path: string; ref?: string },
): Promise<string> {
  const { kubeconfig } = await cluster.start();
  const api = await gh.start();
  try {
    const run = await runBundle(
      { kubeconfig, 'github-token': TOKEN, 'keep-label': 'keep-preview', timeout: '20s', ...inputs },
      {
        GITHUB_API_URL: api,
        GITHUB_EVENT_NAME: event.name,
        GITHUB_EVENT_PATH: event.path,
        ...(event.ref ? { GITHUB_REF: event.ref } : {}),
      },
    );
    return run.summary;
  } finally {
    await cluster.stop();
    await gh.stop();
  }
}

function pullRequestClosed(number: number, title: string): { name: string; path: string } {
  const path = join(tempDir('nt-picture-event-'), 'event.json');
  writeFileSync(
    path,
    JSON.stringify({
      action: 'closed',
      pull_request: { number, title, html_url: `https://github.com/acme/shop/pull/${number}` },
    }),
  );
  return { name: 'pull_request', path };
}

export const LIFECYCLE_SCENARIOS: LifecycleScenario[] = [
  {
    name: 'keep-label',
    title: 'A closed pull request that carries the keep label',
    run: () => {
      const cluster = new FakeCluster({ controller: FAST });
      cluster.addNamespace('pr-42');
      const gh = new FakeGitHub(TOKEN);
      gh.pulls.set(42, { state: 'closed', closed_at: daysAgo(0), labels: ['keep-preview', 'demo'] });
      return bundle(cluster, gh, { namespaces: 'pr-42' }, pullRequestClosed(42, 'Add cart'));
    },
  },
  {
    name: 'comment',
    title: '/teardown in a comment by a collaborator with write access',
    run: () => {
      const cluster = new FakeCluster({ controller: FAST });
      cluster.addNamespace('pr-42');
      addKialiCRD(cluster);
      addKialiCR(cluster, 'pr-42');
      const gh = new FakeGitHub(TOKEN);
      gh.pulls.set(42, { state: 'open', labels: ['preview'] });
      gh.permissions.set('alice', 'write');
      const event = issueCommentEvent({ id: 77, body: '/teardown', user: { login: 'alice', type: 'User' } });
      return bundle(
        cluster,
        gh,
        { namespaces: 'pr-42', 'comment-command': '/teardown', timeout: '5s' },
        { name: 'issue_comment', path: event },
      );
    },
  },
  {
    name: 'max-age',
    title: 'The nightly sweep with max-age 7d and a namespace ttl',
    run: () => {
      const cluster = new FakeCluster({ controller: FAST });
      const ns = (pr: number, days: number, annotations?: Record<string, string>): void => {
        cluster.addNamespace(`pr-${pr}`, {
          labels: { [LABEL]: String(pr) },
          createdAt: daysAgo(days),
          annotations,
        });
      };
      ns(101, 9);
      ns(102, 12);
      ns(103, 2);
      ns(104, 4, { [TTL_ANNOTATION]: '48h' });
      ns(105, 30, { [TTL_ANNOTATION]: 'forever' });
      ns(106, 3);
      const gh = new FakeGitHub(TOKEN);
      for (const pr of [101, 103, 104, 105]) gh.pulls.set(pr, { state: 'open', labels: ['preview'] });
      gh.pulls.set(102, { state: 'open', labels: ['keep-preview'] });
      gh.pulls.set(106, { state: 'closed', closed_at: daysAgo(1), merged_at: daysAgo(1) });
      const path = join(tempDir('nt-picture-event-'), 'event.json');
      writeFileSync(path, JSON.stringify({ schedule: '0 3 * * *' }));
      return bundle(
        cluster,
        gh,
        { sweep: 'on', 'sweep-pr-label': LABEL, 'sweep-repository': 'acme/shop', 'max-age': '7d' },
        { name: 'schedule', path, ref: 'refs/heads/main' },
      );
    },
  },
  {
    name: 'gitops-first',
    title: 'A Flux Kustomization deleted before its namespace, two left alone',
    run: () => {
      const cluster = new FakeCluster({ controller: FAST });
      cluster.addNamespace('pr-42');
      cluster.addNamespace('shared-db');
      cluster.addGitOps('flux');
      const gvr = { group: 'kustomize.toolkit.fluxcd.io', version: 'v1', resource: 'kustomizations' };
      cluster.addObject(
        gvr,
        kustomizationBody({ name: 'preview-web-42', namespaces: ['pr-42'], objectsPerNamespace: 13 }),
      );
      cluster.addObject(gvr, kustomizationBody({ name: 'previews-db', namespaces: ['pr-42', 'shared-db'] }));
      // An owner whose prune would take a CRD and a ClusterRole with the preview: left alone, saying so.
      cluster.addCRD({ group: 'acme.io', version: 'v1', kind: 'Widget', plural: 'widgets' });
      cluster.addObject(
        { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles' },
        { name: 'web-reader', rules: [] },
      );
      const more = [
        '_widgets.acme.io_apiextensions.k8s.io_CustomResourceDefinition',
        '_web-reader_rbac.authorization.k8s.io_ClusterRole',
      ];
      cluster.addObject(gvr, kustomizationBody({ name: 'preview-platform-42', namespaces: ['pr-42'], more }));
      const gh = new FakeGitHub(TOKEN);
      gh.pulls.set(42, { state: 'closed', closed_at: daysAgo(0), labels: ['preview'] });
      return bundle(
        cluster,
        gh,
        { namespaces: 'pr-42', 'gitops-owners': 'delete' },
        pullRequestClosed(42, 'Add cart'),
      );
    },
  },
];
