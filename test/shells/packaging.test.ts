// The electron-builder configuration, loaded and validated by electron-builder's own loader (packaging itself cannot
// run here: it downloads Electron): its targets, app id, files and icon, and that the icon is a real 512x512 PNG
// drawn from resources/icon.svg.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config.js';
import { DebugLogger } from 'builder-util';
import { minimatch } from 'minimatch';
import { chromiumMissing } from './chromium.ts';
import { ICON_PNG, ICON_SIZE, ICON_SVG, renderIcon } from './renderIcon.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The chunks of a PNG, checked for their CRC-free framing (length, type, data) up to IEND. */
function pngChunks(png: Buffer): { type: string; data: Buffer }[] {
  expect(png.subarray(0, 8).equals(PNG_SIGNATURE), 'PNG signature').toBe(true);
  const chunks: { type: string; data: Buffer }[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    chunks.push({ type, data: png.subarray(at + 8, at + 8 + length) });
    at += 12 + length;
    if (type === 'IEND') break;
  }
  return chunks;
}

/** RGBA pixels of a non-interlaced 8-bit RGBA PNG (undoing the per-row filters). */
function rgba(png: Buffer): { width: number; height: number; pixels: Buffer } {
  const chunks = pngChunks(png);
  const ihdr = chunks[0]!.data;
  const width = ihdr.readUInt32BE(0);
  const height = ihdr.readUInt32BE(4);
  const raw = inflateSync(Buffer.concat(chunks.filter((c) => c.type === 'IDAT').map((c) => c.data)));
  const stride = width * 4;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    for (let x = 0; x < stride; x++) {
      const byte = raw[y * (stride + 1) + 1 + x]!;
      const left = x >= 4 ? pixels[y * stride + x - 4]! : 0;
      const up = y > 0 ? pixels[(y - 1) * stride + x]! : 0;
      const upLeft = x >= 4 && y > 0 ? pixels[(y - 1) * stride + x - 4]! : 0;
      const paeth = (): number => {
        const p = left + up - upLeft;
        const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
        return pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
      };
      const predictor = [0, left, up, (left + up) >> 1, paeth()][filter]!;
      pixels[y * stride + x] = (byte + predictor) & 0xff;
    }
  }
  return { width, height, pixels };
}

describe('electron-builder configuration', () => {
  it('is valid for electron-builder and builds AppImage, deb, dmg and nsis', async () => {
    const config = await getConfig(ROOT, null, null);
    await validateConfiguration(config, new DebugLogger(false));
    expect(config.appId).toBe('io.koinos.wallet.desktop');
    expect(config.productName).toBe('Koinos Wallet');
    expect(config.linux?.target).toEqual(['AppImage', 'deb']);
    expect(config.mac?.target).toEqual(['dmg']);
    expect(config.win?.target).toEqual(['nsis']);
  });

  it('packs the built app only: out/, without source maps, sources or tests', async () => {
    const config = await getConfig(ROOT, null, null);
    // electron-builder normalizes `files` to filter sets; package.json and production node_modules are added by it.
    const patterns = (config.files as { filter: string[] }[]).flatMap((set) => set.filter);
    expect(patterns).toEqual(['out/**/*', '!out/**/*.map']);
    const packed = (path: string): boolean =>
      patterns.reduce(
        (inside, pattern) =>
          pattern.startsWith('!') ? inside && !minimatch(path, pattern.slice(1)) : inside || minimatch(path, pattern),
        false,
      );
    for (const path of [
      'out/main/index.js',
      'out/main/cli.js',
      'out/preload/index.cjs',
      'out/renderer/index.html',
      'out/renderer/assets/index-abc.js',
    ]) {
      expect(packed(path), path).toBe(true);
    }
    for (const path of [
      'out/main/index.js.map',
      'src-main/shells/electron/main.ts',
      'src-renderer/App.svelte',
      'test/shells/packaging.test.ts',
      'proto/koinos.proto',
      'README.md',
    ]) {
      expect(packed(path), path).toBe(false);
    }
    const pkg = JSON.parse(await readFile(resolve(ROOT, 'package.json'), 'utf8')) as {
      main: string;
      scripts: Record<string, string>;
    };
    expect(pkg.main.startsWith('out/')).toBe(true);
    expect(pkg.scripts['dist']).toMatch(/electron-vite build && electron-builder/);
  });

  it('flips the Electron fuses: no Node mode, NODE_OPTIONS or --inspect; only the integrity-checked app.asar; no file:// extras', async () => {
    const pkg = JSON.parse(await readFile(resolve(ROOT, 'package.json'), 'utf8')) as {
      build: { electronFuses?: Record<string, unknown> };
    };
    const fuses = pkg.build.electronFuses;
    expect(fuses).toBeDefined();
    const expected: Record<string, boolean> = {
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    };
    for (const [fuse, value] of Object.entries(expected)) expect(fuses![fuse], fuse).toBe(value);
    // The names are electron-builder 26's own (its schema refuses others, and the validation above would fail).
    const schema = JSON.parse(await readFile(resolve(ROOT, 'node_modules/app-builder-lib/scheme.json'), 'utf8')) as {
      definitions: { FuseOptionsV1: { properties: Record<string, unknown> } };
    };
    for (const fuse of Object.keys(fuses!))
      expect(Object.keys(schema.definitions.FuseOptionsV1.properties), fuse).toContain(fuse);
    // onlyLoadAppFromAsar needs the app packed as an asar (electron-builder's default, unless turned off).
    const config = await getConfig(ROOT, null, null);
    expect(config.asar).not.toBe(false);
  });

  it('uses the icon in resources/: a 512x512 RGBA PNG', async () => {
    const config = await getConfig(ROOT, null, null);
    expect(config.directories?.buildResources).toBe('resources');
    expect(config.icon).toBe('resources/icon.png');
    const png = await readFile(resolve(ROOT, config.icon!));
    const ihdr = pngChunks(png)[0]!;
    expect(ihdr.type).toBe('IHDR');
    expect([ihdr.data.readUInt32BE(0), ihdr.data.readUInt32BE(4)]).toEqual([ICON_SIZE, ICON_SIZE]);
    expect([ihdr.data[8], ihdr.data[9], ihdr.data[12]]).toEqual([8, 6, 0]); // 8-bit, RGBA, not interlaced
    const { pixels } = rgba(png);
    const alphaAt = (x: number, y: number) => pixels[(y * ICON_SIZE + x) * 4 + 3];
    expect(alphaAt(0, 0)).toBe(0); // the corners are transparent (a rounded tile)
    expect(alphaAt(256, 256)).toBe(255);
  });

  it.skipIf(chromiumMissing() !== undefined)(
    'has an icon.png drawn from icon.svg (render it again after editing the SVG)',
    async () => {
      const fresh = rgba(await renderIcon(ICON_SVG)).pixels;
      const stored = rgba(await readFile(ICON_PNG)).pixels;
      let differing = 0;
      for (let i = 0; i < fresh.length; i++) if (Math.abs(fresh[i]! - stored[i]!) > 8) differing++;
      // Anti-aliasing may differ a little between Chromium versions; a changed drawing differs in thousands of values.
      expect(differing).toBeLessThan(fresh.length / 1000);
    },
  );
});
