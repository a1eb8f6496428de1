// What a task tells the agents about the folder they work in (the tools' own descriptions say the rest): a copy of
// the workspace folder, or a scratch folder with the files attached to a chat /edit.

import { basename } from 'node:path';
import type { FilesOption } from '../../core/run/work-area';

/** For a copy of the workspace folder `folderName`. */
export function workspaceInstructions(folderName: string): string {
  return [
    `You work on your own copy of the project "${folderName}" (your working folder). Read it with list_directory, read_file and search_files; change it with edit_file or write_file.`,
    'The other agents work on copies of their own; the files of each current answer are readable under peers/agentK/.',
    'When your change is done, call new_answer with a short summary of what you changed and why (your changed files are recorded with it), or vote if another answer is better.',
  ].join('\n');
}

/** For a scratch folder holding `paths` (a chat /edit's attached files). */
export function editInstructions(paths: string[]): string {
  return [
    `The files to change are in your working folder: ${paths.join(', ')}.`,
    'Make the changes there with edit_file or write_file (read_file and list_directory show what is there; the other agents\' folders are readable under peers/).',
    'Then call new_answer with a short summary of what you changed and why — or vote, if another agent\'s work (see peers/agentK/) is better.',
  ].join('\n');
}

/** The instructions for a run's `files`; undefined for an empty folder or none. */
export function copyInstructions(files: FilesOption | undefined): string | undefined {
  if (files?.kind === 'scratch') return editInstructions(files.seed.map((f) => f.relativePath));
  if (files?.kind === 'workspace' && files.source) return workspaceInstructions(basename(files.source));
  return undefined;
}
