/**
 * Security rules of the Electron shell in one place (STYLE.md "Security in one room"), as plain
 * functions so they are tested under Node. `index.ts` wires them into Electron.
 */

/** Content-Security-Policy of the app's pages: only the app itself and the recording protocol. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  // wavesurfer.js renders into a shadow root with a <style> element, and Svelte sets style attributes.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "media-src 'self' vr-recording: blob:",
  "connect-src 'self' vr-recording:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

/**
 * True when `url` belongs to the app: the built renderer under `rendererDir` (file://) or,
 * in development, the dev server's origin. Compared by parsed URL, never by string prefix.
 * @param url the URL of the frame that sent an IPC message or wants to navigate
 * @param rendererFileUrl `file://` URL of the built renderer's index.html
 * @param devServerUrl electron-vite's dev server URL, when running `npm run dev`
 */
export function isAppUrl(url: string, rendererFileUrl: string, devServerUrl?: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (devServerUrl) {
    try {
      if (parsed.origin === new URL(devServerUrl).origin) return true;
    } catch {
      // An unparsable dev URL allows nothing.
    }
  }
  if (parsed.protocol !== 'file:') return false;
  const app = new URL(rendererFileUrl);
  return parsed.pathname === app.pathname;
}

/**
 * `webPreferences` of every app window: isolated, sandboxed, no Node in the renderer, web
 * security on, no insecure content, no experimental features.
 * @param preloadPath absolute path of the built preload script
 */
export function secureWebPreferences(preloadPath: string) {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
  } as const;
}

/** Links the app may hand to the system browser: http(s) only, never file:, javascript:, etc. */
export function isExternalLinkAllowed(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}
