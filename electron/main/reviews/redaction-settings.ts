/**
 * The PII rules of Settings (shared/redaction.ts), kept in `<userData>/redaction.json` (0600,
 * written atomically). A missing or unreadable file means every rule on: redaction errs on
 * masking, so a damaged file never lets a card number through.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_REDACTION_SETTINGS, redactionSettingsSchema, type RedactionSettings } from '$shared/redaction';
import { writePrivateFile } from '../shell/private-file';

/** File name of the PII rules inside the user-data folder. */
export const REDACTION_SETTINGS_FILE = 'redaction.json';

/** Reads and writes the PII rules of one settings folder. */
export interface RedactionSettingsStore {
  /** The saved rules, or every rule on when none are saved or the file cannot be read. */
  get(): Promise<RedactionSettings>;
  /**
   * Saves `settings` (already parsed by `redactionSettingsSchema`).
   * @throws Error from the file system (the old file is then unchanged)
   */
  set(settings: RedactionSettings): Promise<RedactionSettings>;
}

/** The PII rules kept in `dir`/{@link REDACTION_SETTINGS_FILE}. */
export function createRedactionSettingsStore(dir: string): RedactionSettingsStore {
  const path = join(dir, REDACTION_SETTINGS_FILE);
  return {
    async get() {
      let text: string;
      try {
        text = await readFile(path, 'utf8');
      } catch {
        return { ...DEFAULT_REDACTION_SETTINGS };
      }
      try {
        const parsed = redactionSettingsSchema.safeParse(JSON.parse(text));
        return parsed.success ? parsed.data : { ...DEFAULT_REDACTION_SETTINGS };
      } catch {
        return { ...DEFAULT_REDACTION_SETTINGS };
      }
    },
    async set(settings) {
      await writePrivateFile(path, `${JSON.stringify(settings, null, 2)}\n`);
      return settings;
    },
  };
}
