/**
 * The packaging configuration (electron-builder.yml), read and checked by electron-builder's own
 * code: its config loader, its JSON-schema validation, and the function that turns
 * `electronFuses` into the fuse wire it flips in the packaged Electron binary. Packaging itself
 * needs the Electron binary (internet), so it does not run here; these tests fail if a fuse that
 * must be off is turned on, or keytar stops being rebuilt and unpacked.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FuseV1Options, FuseVersion } from '@electron/fuses';
import { PlatformPackager } from 'app-builder-lib';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config';
import type { Configuration } from 'app-builder-lib';
import { DebugLogger } from 'builder-util';
import { minimatch } from 'minimatch';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '../..');
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

  it('rebuilds keytar for Electron and keeps its native module outside app.asar', () => {
    expect(config.npmRebuild).not.toBe(false);
    const patterns = [config.asarUnpack ?? []].flat().filter((p): p is string => typeof p === 'string');
    const keytarBinary = 'node_modules/keytar/build/Release/keytar.node';
    expect(patterns.some((p) => minimatch(keytarBinary, p))).toBe(true);
    // keytar is a runtime dependency, so electron-builder packs (and rebuilds) it.
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      main: string;
    };
    expect(Object.keys(pkg.dependencies)).toContain('keytar');
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

  it('builds the Linux packages: AppImage and deb', () => {
    const targets = [config.linux?.target ?? []].flat().map((t) => (typeof t === 'string' ? t : t.target));
    expect(targets).toEqual(expect.arrayContaining(['AppImage', 'deb']));
  });
});
