/** What main tells the renderer about files it saves for the user (exports, recording downloads). */

/**
 * What a save through main's save dialog did: `saved` is the file's name (not its folder) once it
 * is completely written, or null when nothing was written (the dialog or the download was cancelled).
 */
export interface SaveResult {
  saved: string | null;
}

/** A recording download to a file while it runs: bytes written so far and the file's size. */
export interface DownloadProgress {
  /** Bytes written to the chosen file so far. */
  receivedBytes: number;
  /** Size of the recording in bytes, or null when the server did not say. */
  totalBytes: number | null;
}
