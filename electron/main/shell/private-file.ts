/**
 * Files only this user may read (settings, key-storage choice, encrypted keys, window state),
 * written atomically with npm's write-file-atomic: a temporary file in the same folder, fsync,
 * then rename, so a crash leaves the old file or the new one, never half of either.
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import writeFileAtomic from 'write-file-atomic';

/**
 * Writes `text` (UTF-8) to `path` atomically with file mode 0600, creating its folder (mode 0700)
 * when missing.
 * @throws Error from the file system (permissions, disk full); the old file is then unchanged.
 */
export async function writePrivateFile(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeFileAtomic(path, text, { mode: 0o600, fsync: true, encoding: 'utf8' });
}
