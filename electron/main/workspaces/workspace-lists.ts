/**
 * A small JSON file of one list per workspace (`{ version: 1, workspaces: { <id>: [...] } }`),
 * next to settings.json, mode 0600, written atomically (writePrivateFile). The review queue and
 * the recent calls are kept this way. A file that cannot be read or parsed counts as empty (and
 * is replaced at the next write), and an unreadable entry is dropped, not its whole list: a lost
 * list must never stop the app. Changes run one after another, so two quick ones cannot lose one
 * another; a workspace whose list becomes empty leaves the file.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { writePrivateFile } from '../shell/private-file';

/** See {@link createWorkspaceListFile}. */
export interface WorkspaceListFile<T> {
  /** Workspace `workspaceId`'s list as stored (empty when it has none), after any pending change. */
  list(workspaceId: string): Promise<T[]>;
  /**
   * Replaces workspace `workspaceId`'s list with `edit(list)` and resolves with the new list.
   * Rejects only when the file cannot be written.
   */
  change(workspaceId: string, edit: (items: T[]) => T[]): Promise<T[]>;
}

/**
 * Opens the list file at `path` (it is created at the first change).
 * @param itemSchema a tolerant schema of one entry; entries it refuses are dropped
 */
export function createWorkspaceListFile<T>(path: string, itemSchema: z.ZodType<T>): WorkspaceListFile<T> {
  const fileSchema = z.object({
    version: z.literal(1),
    workspaces: z.record(
      z.string(),
      z.array(z.unknown()).transform((items) =>
        items.flatMap((item) => {
          const parsed = itemSchema.safeParse(item);
          return parsed.success ? [parsed.data] : [];
        }),
      ),
    ),
  });
  let pending: Promise<unknown> = Promise.resolve();

  async function read(): Promise<Record<string, T[]>> {
    try {
      const parsed = fileSchema.safeParse(JSON.parse(await readFile(path, 'utf8')));
      if (parsed.success) return parsed.data.workspaces;
    } catch {
      // Missing or not JSON: start afresh.
    }
    return {};
  }

  return {
    list: async (workspaceId) => {
      await pending;
      return (await read())[workspaceId] ?? [];
    },
    change: (workspaceId, edit) => {
      const next = pending.then(async () => {
        const workspaces = await read();
        const items = edit(workspaces[workspaceId] ?? []);
        const kept = Object.entries({ ...workspaces, [workspaceId]: items }).filter(([, list]) => list.length > 0);
        await writePrivateFile(
          path,
          `${JSON.stringify({ version: 1, workspaces: Object.fromEntries(kept) }, null, 2)}\n`,
        );
        return items;
      });
      pending = next.catch(() => undefined);
      return next;
    },
  };
}
