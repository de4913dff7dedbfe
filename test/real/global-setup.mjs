// Jest loads globalSetup with Node's own resolver, which cannot map `./x.js` to `./x.ts`; tsx can.
import { tsImport } from 'tsx/esm/api';

export default async function setup() {
  const { default: globalSetup } = await tsImport('./global-setup.ts', import.meta.url);
  await globalSetup();
}
