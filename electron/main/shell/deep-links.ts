/**
 * `voice-review://` links handed to the app by the OS, from main's side: where they arrive (the
 * command line of the first start and of a second start on Windows and Linux, `open-url` on
 * macOS), how the app registers as the scheme's handler, and the router that reads each link with
 * the shared parser (electron/shared/deep-link.ts) and pushes the result to the window, keeping
 * the latest one until the window's page is there to receive it.
 */
import { resolve } from 'node:path';
import { PUSH_CHANNELS, type OpenLinkPush } from '$shared/contract';
import { LINK_SCHEME, parseInteractionLink } from '$shared/deep-link';

/**
 * The link among command-line arguments: the first one starting with `voice-review:` (any other
 * argument, e.g. a Chromium switch or a file, is never treated as a link), or null.
 * @param argv the process's arguments (`process.argv`, or `second-instance`'s `argv`)
 */
export function findLinkArgument(argv: readonly string[]): string | null {
  return argv.slice(1).find((arg) => arg.startsWith(`${LINK_SCHEME}:`)) ?? null;
}

/**
 * Registers the app as the OS handler of `voice-review:` links (`app.setAsDefaultProtocolClient`):
 * just the scheme when the app is packaged; when it runs as `electron <app path>`
 * (`process.defaultApp`, i.e. `npm run dev`), also the Electron binary and the app's path, so the
 * OS starts this app rather than bare Electron.
 * @returns whether the OS accepted the registration (Electron's answer)
 */
export function registerLinkScheme(
  app: { setAsDefaultProtocolClient(scheme: string, path?: string, args?: string[]): boolean },
  process: { defaultApp?: boolean; execPath: string; argv: readonly string[] },
): boolean {
  const appPath = process.argv[1];
  if (process.defaultApp === true && appPath !== undefined) {
    return app.setAsDefaultProtocolClient(LINK_SCHEME, process.execPath, [resolve(appPath)]);
  }
  return app.setAsDefaultProtocolClient(LINK_SCHEME);
}

/** Where the router delivers: the app window whose page listens. */
export interface LinkTarget {
  /** Sends a push to the page (`webContents.send`). */
  send(channel: string, payload: OpenLinkPush): void;
  /** Brings the window to the front (restored if minimized, focused). */
  reveal(): void;
}

/** What the router needs besides a target. */
export interface LinkRouterOptions {
  log: { info(...data: unknown[]): void; warn(...data: unknown[]): void };
  /** Called when a link arrives and no window listens (e.g. on macOS after the window was closed). */
  wantWindow?: () => void;
}

/** See {@link createLinkRouter}. */
export interface LinkRouter {
  /**
   * A link from the OS: read by the shared parser, logged (its SID, or the refusal's words; never
   * the link's text), and pushed to the window, or kept until one is attached (only the latest).
   * @param source where it came from, for the log (e.g. "open-url", "second-instance")
   */
  receive(text: string, source: string): void;
  /** The window's page is loaded and listening: the kept link is delivered, later ones at once. */
  attach(target: LinkTarget): void;
  /** The window is gone: links are kept again until the next {@link attach}. */
  detach(): void;
}

/** Creates a {@link LinkRouter}. */
export function createLinkRouter(options: LinkRouterOptions): LinkRouter {
  let target: LinkTarget | null = null;
  let pending: OpenLinkPush | null = null;
  const deliver = (push: OpenLinkPush, to: LinkTarget) => {
    to.reveal();
    to.send(PUSH_CHANNELS.openLink, push);
  };
  return {
    receive(text, source) {
      const push = parseInteractionLink(text);
      if (push.ok) {
        const at = push.link.atSeconds === null ? '' : ` at ${String(push.link.atSeconds)} s`;
        options.log.info(`Opening a voice-review link (${source}): ${push.link.sid}${at}.`);
      } else {
        options.log.warn(`Refused a voice-review link (${source}): ${push.message}`);
      }
      if (target) {
        deliver(push, target);
        return;
      }
      pending = push;
      options.wantWindow?.();
    },
    attach(next) {
      target = next;
      if (pending) deliver(pending, next);
      pending = null;
    },
    detach() {
      target = null;
    },
  };
}
