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

/**
 * Runs `work` in a task of its own, queued now: after the tasks already waiting (the recording's
 * network answers among them), so a view built in parts lets them in between. Not delayed by a
 * timer's clamping, and not put off until idle.
 * @returns a function that cancels `work` if it has not run (a Svelte effect's cleanup)
 */
export function afterWaitingTasks(work: () => void): () => void {
  let cancelled = false;
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    channel.port1.close();
    if (!cancelled) work();
  };
  channel.port2.postMessage(null);
  return () => {
    cancelled = true;
    channel.port1.close();
  };
}

/**
 * Runs `work` in a task queued once the page's next frame is being drawn (from a
 * requestAnimationFrame callback), so what the current task put on the page is painted before
 * `work` adds more. Where animation frames do not exist, in a task of its own (afterWaitingTasks).
 * @returns a function that cancels `work` if it has not run (a Svelte effect's cleanup)
 */
export function afterNextPaint(work: () => void): () => void {
  if (typeof requestAnimationFrame !== 'function') return afterWaitingTasks(work);
  let cancelled = false;
  let cancelTask: (() => void) | null = null;
  const frame = requestAnimationFrame(() => {
    if (!cancelled) cancelTask = afterWaitingTasks(work);
  });
  return () => {
    cancelled = true;
    cancelAnimationFrame(frame);
    cancelTask?.();
  };
}
