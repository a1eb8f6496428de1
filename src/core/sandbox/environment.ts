// The environment an agent's command runs with. It is built from an allow-list, not by removing what looks
// dangerous from ours: the parent's environment holds API keys (OPENAI_API_KEY…), tokens and agent sockets, and a
// command's output goes back to a model. Only a few harmless variables are taken from the parent; a few are fixed
// (HOME and TMPDIR point into the command's private temp folder, no colours, no pager, no prompts); the caller's
// extra variables are added unless their name or value looks like a secret, or their value contains a secret the
// host knows (its configured API keys, and the values of the parent's secret-named variables). Pure.

/**
 * Variables taken from the parent's environment when present (besides the LC_* family). The CA bundle paths are
 * file names, not secrets: behind a TLS-inspecting proxy, `npm install` (with the network allowed) needs them.
 */
const FROM_PARENT: readonly string[] = ['PATH', 'LANG', 'LANGUAGE', 'TZ', 'USER', 'LOGNAME', 'NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR'];

/** Fixed values: no colours or pagers (the output is read by a model), no interactive prompts, CI behaviour. */
const FIXED: Readonly<Record<string, string>> = {
  TERM: 'dumb',
  NO_COLOR: '1',
  FORCE_COLOR: '0',
  CI: '1',
  PAGER: 'cat',
  GIT_PAGER: 'cat',
  GIT_TERMINAL_PROMPT: '0',
  SHELL: '/bin/sh',
};

/** Set by the runner for each command; a caller cannot point them elsewhere. */
const RESERVED: readonly string[] = ['HOME', 'TMPDIR', 'TMP', 'TEMP'];

const FALLBACK_PATH = '/usr/local/bin:/usr/bin:/bin';

// Names that carry credentials: *_KEY, *TOKEN*, *SECRET*, *PASSWORD*, credentials, auth (not AUTHOR), cookies,
// sessions, private keys, and whole families that are mostly credentials (cloud providers, GitHub, SSH/GPG agents,
// model providers). Matched ignoring case.
const SECRET_NAME = new RegExp(
  [
    '(^|_)KEY(_|S?$)',
    'APIKEY',
    'ACCESSKEY',
    'TOKEN',
    'SECRET',
    'PASSWORD',
    'PASSWD',
    'PASSPHRASE',
    '(^|_)PASS$',
    'CREDENTIAL',
    'AUTH(?!OR)',
    'COOKIE',
    'SESSION',
    'PRIVATE',
    '^(AWS|AZURE|GOOGLE|GCP|GCLOUD|GITHUB|GH|GITLAB|NPM_CONFIG_.*AUTH|SSH|GPG|GNUPG|OPENAI|ANTHROPIC|GEMINI|XAI|GROQ|MISTRAL|COHERE|HF|HUGGING|OPENROUTER|DEEPSEEK)(_|$)',
  ].join('|'),
  'i',
);

// Values shaped like well-known credentials (OpenAI/Anthropic sk-…, GitHub ghp_/gho_/ghs_/github_pat_, Slack
// xox?-, AWS access key ids, Google API keys, PEM private keys), whatever the variable is called.
const SECRET_VALUE = /\bsk-[A-Za-z0-9_-]{16,}|\bgh[pousr]_[A-Za-z0-9]{20,}|\bgithub_pat_[A-Za-z0-9_]{20,}|\bxox[abprs]-[A-Za-z0-9-]{10,}|\bAKIA[0-9A-Z]{16}\b|\bAIza[0-9A-Za-z_-]{30,}|-----BEGIN [A-Z ]*PRIVATE KEY-----/;

const VALID_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Whether a variable of this name is treated as a secret and never passed to a command. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** Whether a value looks like a credential, or contains one of `known` (API keys from the config, SecretStorage). */
export function looksSecret(value: string, known: readonly string[] = []): boolean {
  return SECRET_VALUE.test(value) || known.some((secret) => secret.length >= 8 && value.includes(secret));
}

export interface CommandEnvironmentInput {
  /** The environment the host runs with (process.env); only the allow-list is read from it. */
  parent: Readonly<Record<string, string | undefined>>;
  /** HOME of the command: a folder inside its private temp folder. */
  home: string;
  /** TMPDIR (and TMP, TEMP) of the command. */
  tmp: string;
  /** Variables the caller adds (secret-free, e.g. from the config); each is checked like the rest. */
  extra?: Readonly<Record<string, string>>;
  /** Secret values known to the host (API keys from the config or SecretStorage): no variable may contain one. */
  knownSecrets?: readonly string[];
  /** Folders appended to PATH when missing from it (the folder of the Node binary in use). */
  appendPath?: readonly string[];
}

export interface CommandEnvironment {
  env: Record<string, string>;
  /** Variables the caller asked for that were left out, with why (for a log line, never for the model). */
  dropped: { name: string; reason: string }[];
}

/** The complete environment of one command. */
export function commandEnvironment(input: CommandEnvironmentInput): CommandEnvironment {
  // The parent's own secrets count as known: an extra variable that embeds one (a URL with a token) is dropped.
  const parentSecrets = Object.entries(input.parent).flatMap(([name, value]) => (value !== undefined && isSecretName(name) ? [value] : []));
  const known = [...(input.knownSecrets ?? []), ...parentSecrets];
  const env: Record<string, string> = {};
  const dropped: { name: string; reason: string }[] = [];
  const acceptable = (name: string, value: string): string | null => {
    if (!VALID_NAME.test(name)) return 'not a valid variable name';
    if (value.includes('\0')) return 'the value contains a NUL byte';
    if (isSecretName(name)) return 'the name looks like a secret';
    if (looksSecret(value, known)) return 'the value looks like a secret';
    return null;
  };
  for (const [name, value] of Object.entries(input.parent)) {
    if (value === undefined || value.startsWith('()')) continue; // shell functions are never passed on
    if (!FROM_PARENT.includes(name) && !name.startsWith('LC_')) continue;
    if (acceptable(name, value) === null) env[name] = value;
  }
  env.PATH = withFolders(env.PATH ?? FALLBACK_PATH, input.appendPath ?? []);
  Object.assign(env, FIXED);
  for (const [name, value] of Object.entries(input.extra ?? {})) {
    const reason = RESERVED.includes(name) ? 'set by the sandbox for every command' : acceptable(name, value);
    if (reason === null) env[name] = value;
    else dropped.push({ name, reason });
  }
  Object.assign(env, { HOME: input.home, TMPDIR: input.tmp, TMP: input.tmp, TEMP: input.tmp });
  return { env, dropped };
}

function withFolders(pathValue: string, folders: readonly string[]): string {
  const parts = pathValue.split(':').filter(Boolean);
  for (const folder of folders) if (!parts.includes(folder)) parts.push(folder);
  return parts.join(':');
}
