// Jest loads globalTeardown with Node's own resolver, which cannot map `./x.js` to `./x.ts`; tsx can.
import { tsImport } from 'tsx/esm/api';

export default async function teardown() {
  const { default: globalTeardown } = await tsImport('./global-teardown.ts', import.meta.url);
  await globalTeardown();
}
