import { parseConversionError } from '../../src/diagnosis/snapshot/conversion-reads.js';
import { diagnose } from '../../src/diagnosis/index.js';
import { conversionFailed } from '../../src/diagnosis/rules/conversion-failed.js';
import type { ConversionState } from '../../src/diagnosis/types.js';
import { snapshot } from './fixtures.js';

/** The error kube-apiserver 1.20 returned for a list at v1 of objects stored at v1beta1 (measured). */
const ERROR =
  'conversion webhook for conv.example.com/v1beta1, Kind=Gadget failed: Post "https://conv-webhook.conv-system.svc:443/convert?timeout=30s": service "conv-webhook" not found';

function state(over: Partial<ConversionState> = {}): ConversionState {
  return {
    crd: 'gadgets.conv.example.com',
    group: 'conv.example.com',
    resource: 'gadgets',
    kind: 'Gadget',
    storedAt: 'v1beta1',
    requested: 'v1',
    error: ERROR,
    definition: {
      storageVersion: 'v1beta1',
      served: ['v1beta1', 'v1'],
      storedVersions: ['v1beta1'],
      strategy: 'Webhook',
      service: { namespace: 'conv-system', name: 'conv-webhook', path: '/convert', port: 443 },
    },
    backing: { serviceExists: false, readyEndpoints: 0 },
    listed: 2,
    ...over,
  };
}

describe('parseConversionError', () => {
  test('the group, the version objects are stored at, the kind and the error', () => {
    expect(parseConversionError(`500: ${ERROR}`)).toEqual({
      group: 'conv.example.com',
      storedAt: 'v1beta1',
      kind: 'Gadget',
      error: ERROR,
    });
    expect(parseConversionError('configmaps is forbidden')).toBeUndefined();
  });
});

describe('conversion-failed', () => {
  test('names the CRD, both versions and the missing Service; deleting at the stored version is the fix', () => {
    const [f] = conversionFailed(snapshot({ conversions: [state()] }));
    expect(f!.summary).toBe(
      "gadgets.conv.example.com cannot be listed or deleted: objects stored at v1beta1 must be converted to v1 and its conversion webhook's service conv-system/conv-webhook does not exist; 2 object(s) found by listing at v1beta1, which needs no conversion",
    );
    expect(f!.objects).toBe(2);
    expect(f!.remedy.commands[0]).toBe(
      'kubectl delete gadgets.v1beta1.conv.example.com --all -n preview-42 --wait=false',
    );
    // Nothing cluster-wide is offered while a namespaced way out exists.
    expect(f!.remedy.lastResort).toBeUndefined();
    expect(f!.evidence).toContainEqual({
      object: 'customresourcedefinition/gadgets.conv.example.com',
      field: 'status.storedVersions',
      value: 'v1beta1',
    });
    expect(f!.targets).toEqual([
      {
        kind: 'namespace-finalize',
        reason: 'gadgets.conv.example.com cannot be deleted: its conversion webhook fails',
        leaves: [
          'gadgets.conv.example.com: 2 object(s) found by listing at v1beta1, which needs no conversion',
        ],
      },
    ]);
  });

  test('storage switched to v1: every write needs the webhook; the cluster-wide strategy change is only a marked last resort', () => {
    const s = state({ definition: { ...state().definition!, storageVersion: 'v1' } });
    const [f] = conversionFailed(snapshot({ conversions: [s] }));
    expect(f!.remedy.commands.every((c) => c.startsWith('kubectl get'))).toBe(true);
    expect(f!.remedy.lastResort).toEqual({
      commands: [
        `kubectl patch crd gadgets.conv.example.com --type=merge -p '{"spec":{"conversion":{"strategy":"None"}}}'`,
      ],
      risk: expect.stringContaining('cluster-wide') as unknown as string,
    });
  });

  test('a conversion webhook whose Service has ready endpoints is up: no strategy change is offered at all', () => {
    const s = state({
      definition: { ...state().definition!, storageVersion: 'v1' },
      backing: { serviceExists: true, readyEndpoints: 2 },
    });
    const [f] = conversionFailed(snapshot({ conversions: [s] }));
    expect(JSON.stringify(f!.remedy)).not.toContain('strategy');
  });

  test('stored version not served: the count is unknown and said so', () => {
    const s = state({ listed: undefined, definition: { ...state().definition!, served: ['v1'] } });
    const [f] = conversionFailed(snapshot({ conversions: [s] }));
    expect(f!.summary).toContain(
      'how many objects remain is unknown (v1beta1 is not served; the namespace controller could not count them either)',
    );
    expect(f!.objects).toBeUndefined();
  });

  test('is the verdict ahead of the controller’s own words', () => {
    const ids = diagnose(snapshot({ conversions: [state()] })).map((f) => f.id);
    expect(ids[0]).toBe('conversion-failed');
  });
});
