// `${VAR}` references in a backend's URLs (`base_url`, `azure_endpoint`), expanded from the environment as upstream
// does for every value (its Azure examples write `base_url: ${AZURE_GPT4O_BASE_URL}`). A variable that is not set
// leaves the key out, and the caller says which variable to set.

const ENV_REF = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
const URL_KEYS = ['base_url', 'azure_endpoint'] as const;

export interface ExpandedUrls {
  /** The backend mapping with its URL references expanded (the input itself when it has none). */
  backend: unknown;
  /** Keys left out because a variable they name is not set. */
  unset: { key: string; vars: string[] }[];
}

export function expandUrlRefs(backend: unknown, env: NodeJS.ProcessEnv): ExpandedUrls {
  if (!backend || typeof backend !== 'object' || Array.isArray(backend)) return { backend, unset: [] };
  const record = backend as Record<string, unknown>;
  const refs = URL_KEYS.filter((key) => typeof record[key] === 'string' && (record[key] as string).includes('${'));
  if (refs.length === 0) return { backend, unset: [] };
  const copy: Record<string, unknown> = { ...record };
  const unset: ExpandedUrls['unset'] = [];
  for (const key of refs) {
    const value = record[key] as string;
    const vars = [...value.matchAll(ENV_REF)].map((m) => m[1]).filter((name) => !env[name]);
    if (vars.length) {
      delete copy[key];
      unset.push({ key, vars });
    } else {
      copy[key] = value.replace(ENV_REF, (_m, name: string) => env[name] ?? '');
    }
  }
  return { backend: copy, unset };
}
