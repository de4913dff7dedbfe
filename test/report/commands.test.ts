import { layoutScript } from '../../src/report/commands.js';

const PATCH = `kubectl --context fake patch kialis.kiali.io kiali -n preview-mesh --type=json -p '[{"op":"test","path":"/metadata/uid","value":"a3a3de0b-784a-4702-80a8-aca3ff2cfb82"},{"op":"test","path":"/metadata/finalizers/0","value":"kiali.io/finalizer"},{"op":"remove","path":"/metadata/finalizers/0"}]'`;
const PIPE = `kubectl --context my-very-long-context-name get widgets.example.com -n preview-1 -o name | xargs kubectl --context my-very-long-context-name patch -n preview-1 --type=json -p '[{"op":"remove","path":"/metadata/finalizers/0"}]'`;
const LOOP = [
  'for ns in preview-1 preview-10 preview-2 preview-3 preview-4 preview-5 preview-6 preview-7 preview-8 preview-9; do',
  `kubectl --context fake get widgets.example.com -n "$ns" -o name | xargs -r kubectl --context fake patch -n "$ns" --type=merge -p '{"metadata":{"finalizers":null}}'`,
  'done',
].join('\n');

/** The script as the shell reads it back: continuations joined, runs of spaces (outside quotes, here) as one. */
const unwrapped = (text: string): string =>
  text
    .replace(/ \\\n\s*/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .join('\n');

describe('commands laid out to paste', () => {
  const widths = Array.from({ length: 120 - 56 + 1 }, (_, i) => 56 + i);
  test.each([
    ['a JSON patch', PATCH],
    ['a pipe', PIPE],
    ['a loop', LOOP],
  ])('%s: every line within the width, its ` \\` included, never a lone `\\`', (_name, script) => {
    for (const width of widths) {
      const lines = layoutScript(script, width).split('\n');
      expect({ width, over: lines.filter((l) => l.length > width) }).toEqual({ width, over: [] });
      expect(lines.filter((l) => l.trim() === '\\')).toEqual([]);
    }
  });

  test('a wrapped JSON patch parses as the same patch', () => {
    for (const width of widths) {
      const text = unwrapped(layoutScript(PATCH, width));
      const json = /-p '(\[[\s\S]*\])'/.exec(text)![1]!;
      expect(JSON.parse(json)).toEqual(JSON.parse(/-p '(.*)'$/.exec(PATCH)![1]!));
    }
  });

  test("a JSON patch opens on the command's line when `'[` fits: that line needs no ` \\`", () => {
    const command = `kubectl --context fake patch kialis.kiali.io kiali -n pr-7 --type=json -p '[{"op":"remove","path":"/metadata/finalizers/0"},{"op":"remove","path":"/metadata/finalizers/1"}]'`;
    expect(layoutScript(command, 77).split('\n')[0]).toBe(
      "kubectl --context fake patch kialis.kiali.io kiali -n pr-7 --type=json -p '[",
    );
  });

  test('a loop keeps `; do` on its head line', () => {
    const text = layoutScript(LOOP, 60);
    expect(unwrapped(text).split('\n')[0]).toBe(
      'for ns in preview-1 preview-10 preview-2 preview-3 preview-4 preview-5 preview-6 preview-7 preview-8 preview-9; do',
    );
  });
});
