// MCP tool results → the text a model reads: text as is, embedded text resources with their URI, images, audio and
// binary resources as a one-line placeholder (the engine's messages are text), structured content as JSON when the
// server sent nothing else. The tool kit cuts it to the size limit (core/tools/kit.ts `capOutput`).

/** The parts of a `tools/call` result this module reads (kept loose: servers send all sorts). */
export interface ToolResultLike {
  content?: unknown;
  structuredContent?: unknown;
  isError?: boolean;
  toolResult?: unknown;
}

function approxBytes(base64: unknown): string {
  if (typeof base64 !== 'string') return 'unknown size';
  const bytes = Math.floor((base64.replace(/=+$/, '').length * 3) / 4);
  return bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${bytes} bytes`;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function part(item: unknown): string {
  if (!item || typeof item !== 'object') return '';
  const p = item as Record<string, unknown>;
  switch (p.type) {
    case 'text':
      return str(p.text) ?? '';
    case 'image':
      return `[image: ${str(p.mimeType) ?? 'unknown type'}, ${approxBytes(p.data)}; not shown to the model]`;
    case 'audio':
      return `[audio: ${str(p.mimeType) ?? 'unknown type'}, ${approxBytes(p.data)}; not shown to the model]`;
    case 'resource': {
      const r = (p.resource && typeof p.resource === 'object' ? p.resource : {}) as Record<string, unknown>;
      const label = `${str(r.uri) ?? 'resource'}${str(r.mimeType) ? ` (${r.mimeType})` : ''}`;
      if (typeof r.text === 'string') return `[resource ${label}]\n${r.text}`;
      return `[binary resource ${label}, ${approxBytes(r.blob)}; not shown to the model]`;
    }
    case 'resource_link': {
      const name = str(p.name) ?? str(p.title) ?? 'resource';
      const desc = str(p.description) ? `: ${p.description}` : '';
      return `[resource link: ${name} <${str(p.uri) ?? '?'}>${desc}]`;
    }
    default:
      return `[${typeof p.type === 'string' ? p.type : 'unknown'} content; not shown to the model]`;
  }
}

/** The result as text for the model; '(no output)' when the server sent nothing. */
export function resultToText(result: ToolResultLike): string {
  const parts = Array.isArray(result.content) ? result.content.map(part).filter((t) => t.length > 0) : [];
  if (parts.length === 0 && result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent, null, 2));
  // Servers on the 2024-10-07 protocol answer `{ toolResult }`.
  if (parts.length === 0 && result.toolResult !== undefined) parts.push(typeof result.toolResult === 'string' ? result.toolResult : JSON.stringify(result.toolResult));
  return parts.length ? parts.join('\n') : '(no output)';
}
