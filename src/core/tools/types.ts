// The shapes the tool kit works with, declared here so this floor depends on nothing above util; the providers
// re-export ToolSpec and ToolCall, and they match the engine's AgentToolbox structurally, so every toolbox
// built here is an AgentToolbox (the adapters' return types check it).

/** A tool as offered to the model: its name, what it does, and its arguments as JSON Schema. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** A call the model made; `arguments` is the raw JSON text, possibly malformed. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** What the model gets back: `ok: false` for every failure, with words it can act on. */
export interface ToolResult {
  ok: boolean;
  content: string;
}

export interface Toolbox {
  tools: ToolSpec[];
  start?(signal: AbortSignal): Promise<void>;
  execute(call: ToolCall, signal: AbortSignal): Promise<ToolResult>;
  close?(): Promise<void>;
}

/** The failure result every tool words the same way: "<tool> failed: <why>". */
export function failed(tool: string, why: string): ToolResult {
  return { ok: false, content: `${tool} failed: ${why}` };
}
