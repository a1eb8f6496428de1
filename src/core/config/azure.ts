// Azure OpenAI as upstream configures it (massgen/backend/azure_openai.py): `model` is the deployment name, the
// endpoint is `base_url` (or `azure_endpoint`, or AZURE_OPENAI_ENDPOINT), the API version `api_version` (or
// AZURE_OPENAI_API_VERSION, default 2024-12-01-preview), the key AZURE_OPENAI_API_KEY. Requests go to the
// deployment's chat completions, or, for an endpoint that is already OpenAI-compatible (`…/openai/v1`), straight there.

export const AZURE_ENDPOINT_ENV = 'AZURE_OPENAI_ENDPOINT';
export const AZURE_API_VERSION_ENV = 'AZURE_OPENAI_API_VERSION';
export const AZURE_DEFAULT_API_VERSION = '2024-12-01-preview';

export interface AzureSettings {
  /** The resource endpoint without a trailing slash, or undefined when neither the config nor the environment gives one. */
  endpoint?: string;
  apiVersion: string;
}

export function azureSettings(backend: { base_url?: string | null; azure_endpoint?: string | null; api_version?: string | null }, env: NodeJS.ProcessEnv): AzureSettings {
  const endpoint = backend.base_url || backend.azure_endpoint || env[AZURE_ENDPOINT_ENV] || undefined;
  return {
    endpoint: endpoint?.replace(/\/+$/, ''),
    apiVersion: backend.api_version || env[AZURE_API_VERSION_ENV] || AZURE_DEFAULT_API_VERSION,
  };
}

/** True for endpoints that speak the plain OpenAI API (no deployment path, no api-version). */
export function isOpenAIv1Endpoint(endpoint: string): boolean {
  return /\/openai\/v1$/.test(endpoint);
}

/** The base URL the OpenAI SDK appends `/chat/completions` to. */
export function azureChatBaseUrl(endpoint: string, deployment: string): string {
  return isOpenAIv1Endpoint(endpoint) ? endpoint : `${endpoint}/openai/deployments/${encodeURIComponent(deployment)}`;
}
