import type { BuildResult } from 'esbuild';
export function buildWebview(options?: { outdir?: string; production?: boolean; metafile?: boolean }): Promise<BuildResult>;
