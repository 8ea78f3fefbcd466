// Where a task's files come from: its account's (the design's own files and unexpired uploads,
// src/service/render-assets.ts, as for a preview), plus the demo logo for interface B's free mode.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { AssetResolver } from '../assets/resolver.js';
import type { ServiceContext } from '../service/context.js';
import { accountAssetResolver } from '../service/render-assets.js';
import type { DesignRecord, TaskRecord } from '../store/metadata/records.js';

/** The logo of interface B's free mode, drawn by scripts/make-demo-logo.mjs. */
export const DEMO_LOGO_ASSET = 'imprint-demo-logo';
const DEMO_LOGO_FILE = fileURLToPath(new URL('../../assets/demo-logo.png', import.meta.url));

export function taskAssetResolver(ctx: ServiceContext, task: TaskRecord, design: DesignRecord): AssetResolver {
  const files = accountAssetResolver(ctx, task.accountId, design);
  return (ref) => (ref.kind === 'asset' && ref.name === DEMO_LOGO_ASSET && task.demo ? readFile(DEMO_LOGO_FILE) : files(ref));
}
