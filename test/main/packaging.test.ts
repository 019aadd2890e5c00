/**
 * The packaging configuration (electron-builder.yml), read and checked by electron-builder's own
 * code: its config loader, its JSON-schema validation, the function that turns `electronFuses`
 * into the fuse wire it flips in the packaged Electron binary (on every platform), the writer of
 * the Linux .desktop entry and the reader of macOS notarization credentials. Packaging itself
 * needs the Electron binary (internet) and each platform's own tools, so it does not run here;
 * these tests fail if a fuse that must be off is turned on, keytar stops being rebuilt and
 * unpacked, an installer target or the voice-review scheme goes missing, the Windows installer
 * would need administrator rights, or the macOS build loses its hardened runtime.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FuseV1Options, FuseVersion } from '@electron/fuses';
import { PlatformPackager } from 'app-builder-lib';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config';
import type { Configuration } from 'app-builder-lib';
import { DebugLogger } from 'builder-util';
import { minimatch } from 'minimatch';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LINK_SCHEME } from '../../electron/shared/deep-link';
import { REPO_ROOT } from '../fixtures/paths';

const ROOT = REPO_ROOT;
let config: Configuration;

beforeAll(async () => {
  config = await getConfig(ROOT, null, null);
});

/** The fuse wire electron-builder 26 writes for `config.electronFuses` (its own code). */
async function fuseWire(): Promise<Record<string | number, unknown>> {
  const generate = (
    PlatformPackager.prototype as unknown as {
      generateFuseConfig: (this: object, f: unknown) => Promise<Record<string | number, unknown>>;
    }
  ).generateFuseConfig;
  return generate.call({}, config.electronFuses);
}

describe('electron-builder.yml', () => {
  it('is the configuration electron-builder loads, and its schema accepts it', async () => {
    expect(config.appId).toBe('com.voicereview.desktop');
    expect(config.productName).toBe('Voice Review');
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('the schema check would catch a misspelt fuse', async () => {
    const typo = {
      ...config,
      electronFuses: { ...config.electronFuses, runAsNOde: false },
    } as unknown as Configuration;
    await expect(validateConfiguration(typo, new DebugLogger(false))).rejects.toThrow(/configuration.electronFuses/);
  });

  it('turns off the fuses that let the environment or a command line take over the app', async () => {
    const wire = await fuseWire();
    expect(wire.version).toBe(FuseVersion.V1);
    // ELECTRON_RUN_AS_NODE, NODE_OPTIONS / NODE_EXTRA_CA_CERTS, --inspect: all ignored by the packaged app.
    expect(wire[FuseV1Options.RunAsNode]).toBe(false);
    expect(wire[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(false);
    expect(wire[FuseV1Options.EnableNodeCliInspectArguments]).toBe(false);
    // The app no longer uses file:// (it is served through app://).
    expect(wire[FuseV1Options.GrantFileProtocolExtraPrivileges]).toBe(false);
  });

  it('turns on the protective fuses', async () => {
    const wire = await fuseWire();
    expect(wire[FuseV1Options.OnlyLoadAppFromAsar]).toBe(true);
    expect(wire[FuseV1Options.EnableEmbeddedAsarIntegrityValidation]).toBe(true);
    expect(wire[FuseV1Options.EnableCookieEncryption]).toBe(true);
    expect(config.asar).not.toBe(false);
  });

  it('rebuilds keytar and better-sqlite3 for Electron and keeps their native modules outside app.asar', () => {
    expect(config.npmRebuild).not.toBe(false);
    const patterns = [config.asarUnpack ?? []].flat().filter((p): p is string => typeof p === 'string');
    for (const binary of [
      'node_modules/keytar/build/Release/keytar.node',
      'node_modules/better-sqlite3/build/Release/better_sqlite3.node',
    ]) {
      expect(patterns.some((p) => minimatch(binary, p))).toBe(true);
    }
    const script = readFileSync(join(ROOT, 'scripts', 'rebuild-keytar-electron.cjs'), 'utf8');
    expect(script).toMatch(/npm rebuild keytar better-sqlite3/);
    // keytar is a runtime dependency, so electron-builder packs (and rebuilds) it.
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      main: string;
    };
    expect(Object.keys(pkg.dependencies)).toContain('keytar');
    expect(Object.keys(pkg.dependencies)).toContain('better-sqlite3');
    // The app entry and the demo resources main reads at app.getAppPath()/resources are packed.
    const filters = [config.files ?? []]
      .flat()
      .flatMap((f) => (typeof f === 'string' ? [f] : [f.filter ?? []].flat()))
      .filter((p): p is string => typeof p === 'string');
    const packed = (path: string) =>
      filters.some((p) => !p.startsWith('!') && minimatch(path, p)) &&
      !filters.some((p) => p.startsWith('!') && minimatch(path, p.slice(1)));
    expect(packed(pkg.main.replace(/^\.\//, ''))).toBe(true);
    expect(packed('out/renderer/index.html')).toBe(true);
    expect(packed('resources/demo/seed.json')).toBe(true);
    expect(packed('electron/main/index.ts')).toBe(false);
    expect(packed('test/main/packaging.test.ts')).toBe(false);
  });
});

/** Target names of a platform's `target` list. */
function targetsOf(platform: { target?: unknown } | null | undefined): string[] {
  return [platform?.target ?? []].flat().map((t) => (typeof t === 'string' ? t : (t as { target: string }).target));
}

/** The [Desktop Entry] electron-builder 26 writes for the Linux packages (its own LinuxTargetHelper). */
async function linuxDesktopEntry(): Promise<string> {
  const { LinuxTargetHelper } = (await import('app-builder-lib/out/targets/LinuxTargetHelper')) as unknown as {
    LinuxTargetHelper: { prototype: { computeDesktopEntry: (o: unknown, exec?: string) => Promise<string> } };
  };
  const packager = {
    appInfo: { productName: 'Voice Review', sanitizedProductName: 'Voice Review', description: 'Reviews calls' },
    executableName: config.linux?.executableName,
    info: { metadata: { desktopName: 'voice-review.desktop' } },
    fileAssociations: [],
    config,
    platformSpecificBuildOptions: config.linux,
  };
  const helper = Object.assign(Object.create(LinuxTargetHelper.prototype) as object, { packager });
  return LinuxTargetHelper.prototype.computeDesktopEntry.call(helper, config.linux);
}

describe('installers', () => {
  it('builds AppImage and deb on Linux, NSIS on Windows and dmg on macOS', () => {
    expect(targetsOf(config.linux)).toEqual(['AppImage', 'deb']);
    expect(targetsOf(config.win)).toEqual(['nsis']);
    expect(targetsOf(config.mac)).toEqual(['dmg']);
  });

  it('registers the voice-review scheme for macOS and Windows, and in the Linux .desktop entry', async () => {
    const protocols = [config.protocols ?? []].flat();
    expect(protocols).toEqual([{ name: 'Voice Review link', schemes: [LINK_SCHEME] }]);
    const entry = await linuxDesktopEntry();
    // Listed once, by electron-builder from `protocols`; %U hands the link to the app as an argument.
    expect(entry).toMatch(/^MimeType=x-scheme-handler\/voice-review;$/m);
    expect(entry).toMatch(/^Exec=.*voice-review"? %U$/m);
  });

  it('installs per user on Windows: a one-click installer that never asks for administrator rights', () => {
    expect(config.nsis).toMatchObject({ oneClick: true, perMachine: false, allowElevation: false });
  });

  it('signs the macOS app with the hardened runtime and only the JIT entitlement', () => {
    expect(config.mac).toMatchObject({ hardenedRuntime: true });
    expect(config.mac?.notarize).not.toBe(false);
    for (const file of [config.mac?.entitlements, config.mac?.entitlementsInherit]) {
      const plist = readFileSync(join(ROOT, String(file)), 'utf8').replace(/<!--[\s\S]*?-->/g, '');
      const keys = [...plist.matchAll(/<key>([^<]+)<\/key>\s*<(true|false)\/>/g)].map((m) => [m[1], m[2]]);
      expect(keys).toEqual([['com.apple.security.cs.allow-jit', 'true']]);
    }
  });

  describe('macOS notarization', () => {
    const APPLE_VARS = [
      'APPLE_ID',
      'APPLE_APP_SPECIFIC_PASSWORD',
      'APPLE_TEAM_ID',
      'APPLE_API_KEY',
      'APPLE_API_KEY_ID',
      'APPLE_API_ISSUER',
      'APPLE_KEYCHAIN',
      'APPLE_KEYCHAIN_PROFILE',
    ];
    afterEach(() => vi.unstubAllEnvs());
    const notarizeOptions = async () => {
      const { MacTargetHelper } = (await import('app-builder-lib/out/mac/MacTargetHelper')) as unknown as {
        MacTargetHelper: { getNotarizeOptions: (appPath: string) => Record<string, unknown> | undefined };
      };
      return MacTargetHelper.getNotarizeOptions('/tmp/Voice Review.app');
    };

    it('reads Apple credentials from the environment when present', async () => {
      for (const name of APPLE_VARS) vi.stubEnv(name, undefined);
      vi.stubEnv('APPLE_ID', 'builds@example.com');
      vi.stubEnv('APPLE_APP_SPECIFIC_PASSWORD', 'abcd-efgh-ijkl-mnop');
      vi.stubEnv('APPLE_TEAM_ID', 'ABCDE12345');
      expect(await notarizeOptions()).toMatchObject({
        tool: 'notarytool',
        appleId: 'builds@example.com',
        teamId: 'ABCDE12345',
      });
    });

    it('skips notarization without them', async () => {
      for (const name of APPLE_VARS) vi.stubEnv(name, undefined);
      expect(await notarizeOptions()).toBeUndefined();
    });
  });

  it('flips the same fuses on every platform: no platform section may carry fuses of its own', async () => {
    for (const platform of ['mac', 'win', 'linux'] as const) {
      expect(config[platform]).not.toHaveProperty('electronFuses');
      const override = { ...config, [platform]: { ...config[platform], electronFuses: { runAsNode: true } } };
      await expect(validateConfiguration(override, new DebugLogger(false))).rejects.toThrow(
        new RegExp(`configuration.${platform}`),
      );
    }
  });

  it('has icons for each platform: a 1024-pixel PNG, an ICO and an ICNS', () => {
    const png = readFileSync(join(ROOT, 'build/icon.png'));
    expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1024, 1024]);
    const ico = readFileSync(join(ROOT, String(config.win?.icon)));
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2)]).toEqual([0, 1]);
    expect(ico.readUInt16LE(4)).toBeGreaterThanOrEqual(1);
    // A 256-pixel image is stored with 0 as its width and height.
    const sizes = Array.from({ length: ico.readUInt16LE(4) }, (_, i) => ico.readUInt8(6 + 16 * i) || 256);
    expect(sizes).toContain(256);
    const icns = readFileSync(join(ROOT, String(config.mac?.icon)));
    expect(icns.subarray(0, 4).toString('ascii')).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
    expect(icns.includes(Buffer.from('ic10'))).toBe(true);
    expect(config.linux?.icon).toBe('build/icon.png');
  });
});
