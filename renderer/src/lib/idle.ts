/**
 * Work put off until the page is idle, so it never sits between a user's action and what they
 * asked for (showing a call, its recording starting).
 */

/**
 * Runs `work` when the page is next idle (requestIdleCallback), or after at most `timeoutMs`
 * milliseconds when given; where idle callbacks do not exist, on the next task.
 * @returns a function that cancels `work` if it has not run (a Svelte effect's cleanup)
 */
export function whenIdle(work: () => void, timeoutMs?: number): () => void {
  if (typeof requestIdleCallback !== 'function') {
    const timer = setTimeout(work, 0);
    return () => {
      clearTimeout(timer);
    };
  }
  const handle = requestIdleCallback(work, timeoutMs === undefined ? undefined : { timeout: timeoutMs });
  return () => {
    cancelIdleCallback(handle);
  };
}
