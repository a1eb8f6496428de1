// The environment a coding agent's program starts with: what a program needs to run and reach its API (paths, locale,
// proxies, certificates) and its own key, never the rest of ours, where other backends' keys and the user's secrets
// live. Its commands get it without the keys (each program's sandbox settings take those out).

/** Passed through when set: the basics of a process, proxies and certificates. */
const PASSED = ['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TERM', 'TMPDIR', 'TZ', 'HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY', 'https_proxy', 'http_proxy', 'no_proxy', 'NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR', 'SYSTEMROOT', 'APPDATA', 'LOCALAPPDATA', 'USERPROFILE'];

/**
 * Each program's own settings, passed through when the user set them, as the program run by hand would read them:
 * its settings folder, Claude Code's server (a config's `base_url` wins), and OPENAI_API_KEY for Codex, the key a
 * model provider of its config.toml usually names (its own key goes as CODEX_API_KEY besides).
 */
const OWN: Readonly<Record<'claude_code' | 'codex', readonly string[]>> = {
  claude_code: ['CLAUDE_CONFIG_DIR', 'ANTHROPIC_BASE_URL'],
  codex: ['CODEX_HOME', 'OPENAI_API_KEY'],
};

export function programEnvironment(program: 'claude_code' | 'codex', env: NodeJS.ProcessEnv, own: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of [...PASSED, ...OWN[program]]) {
    const value = env[name];
    if (value !== undefined) out[name] = value;
  }
  for (const [name, value] of Object.entries(own)) if (value !== undefined) out[name] = value;
  return out;
}
