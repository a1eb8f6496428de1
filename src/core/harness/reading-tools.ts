// What a coding agent's program reads of the run through the `massgen` MCP server: its file toolbox's read-only tools
// (read_file, list_directory, search_files), so it sees peers/agentK/ (each agent's latest answer) and context/ as
// every agent does, though its own file tools see only its folder. Writes stay with its own tools, in its folder.

import type { AgentToolbox } from '../engine/ports';
import { LIST_DIRECTORY, READ_FILE, SEARCH_FILES } from '../workspace/tool-specs';

const READING = new Set([READ_FILE, LIST_DIRECTORY, SEARCH_FILES]);

/** The read-only part of an agent's file toolbox. */
export function readingTools(files: AgentToolbox): AgentToolbox {
  return {
    get tools() {
      return files.tools.filter((t) => READING.has(t.name));
    },
    start: files.start?.bind(files),
    execute: (call, signal) => (READING.has(call.name) ? files.execute(call, signal) : Promise.resolve({ ok: false, content: `${call.name} is not served here: edit files in your own folder with your own tools` })),
    close: files.close?.bind(files),
  };
}
