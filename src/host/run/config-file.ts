// Which YAML file a run's team comes from: `massgen.configFile` (relative to the workspace), else the workspace's
// own `.massgen/config.yaml`. An untrusted workspace supplies neither: a relative path would name the cloned
// repository's file, not the user's, and its team would choose the endpoints the keys go to.

import { isAbsolute, join } from 'node:path';

export interface ConfigFileContext {
  /** The first workspace folder's path, if a folder is open. */
  root: string | undefined;
  trusted: boolean;
  exists: (path: string) => boolean;
}

/** The file to use, or undefined for none. */
export function configFileFor(setting: string, { root, trusted, exists }: ConfigFileContext): string | undefined {
  if (setting.trim()) {
    if (isAbsolute(setting) || !root) return setting;
    return trusted ? join(root, setting) : undefined;
  }
  if (!root || !trusted) return undefined;
  const project = join(root, '.massgen', 'config.yaml');
  return exists(project) ? project : undefined;
}
