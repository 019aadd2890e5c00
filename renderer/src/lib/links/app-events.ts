/**
 * The page's end of main's pushes: `window.appEvents`, exposed by the preload (see
 * electron/shared/bridge.ts `AppEvents`). Absent where no preload runs it (component tests without
 * a stand-in): subscribing then does nothing.
 */
import type { AppEvents } from '$shared/bridge';

declare global {
  interface Window {
    /** Main's pushes (links from the OS, native menu commands, recording sessions); absent without the preload. */
    appEvents?: AppEvents;
  }
}

/** The pushes from main, or subscriptions that never fire when no preload exposed them. */
export function appEvents(): AppEvents {
  return (
    window.appEvents ?? {
      onOpenLink: () => () => undefined,
      onMenuCommand: () => () => undefined,
      onProxySignIn: () => () => undefined,
      onUpdateState: () => () => undefined,
      onRecordingSession: () => () => undefined,
    }
  );
}
