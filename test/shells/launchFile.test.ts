// The browser shell's launch file: which command opens it, the file itself (owner-only, the address escaped), and in
// Chromium that opening the file leads to a working wallet page with the token out of the address bar.
import { statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { KoinosBridge } from '../../src-main/ipc/contract.ts';
import {
  BROWSER_ENV,
  launchPageHtml,
  openerCommand,
  removeLaunchFile,
  writeLaunchFile,
} from '../../src-main/shells/browser/launchFile.ts';
import { browserShells } from './browserShellHelpers.ts';
import { chromiumMissing, launchChromium } from './chromium.ts';

declare const window: { readonly koinos: KoinosBridge };
declare const document: { getElementById(id: string): { textContent: string | null } | null };

describe('openerCommand', () => {
  const target = 'file:///home/me/.config/koinos-desktop-wallet/browser-launch.html';
  it('uses the system opener of each platform, with the target as its one argument', () => {
    expect(openerCommand(target, 'linux', {})).toEqual({ command: 'xdg-open', args: [target] });
    expect(openerCommand(target, 'darwin', {})).toEqual({ command: 'open', args: [target] });
    expect(openerCommand(target, 'win32', {})).toEqual({ command: 'cmd', args: ['/c', 'start', '""', target] });
  });

  it(`runs $${BROWSER_ENV} instead when it is set`, () => {
    expect(openerCommand(target, 'linux', { [BROWSER_ENV]: '/usr/bin/firefox' })).toEqual({
      command: '/usr/bin/firefox',
      args: [target],
    });
    expect(openerCommand(target, 'linux', { [BROWSER_ENV]: '' })).toEqual({ command: 'xdg-open', args: [target] });
  });
});

describe('the launch file', () => {
  const start = browserShells();

  it('is written owner-only, replacing an older one whatever its mode, and removed on request', async () => {
    const shell = await start();
    const dataDir = shell.dataDir!;
    const old = `${dataDir}/browser-launch.html`;
    await writeFile(old, 'stale', { mode: 0o644 });
    const path = await writeLaunchFile(dataDir, shell.url);
    expect(path).toBe(old);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(await readFile(path, 'utf8')).toContain(`content="0;url=${shell.url}"`);
    await removeLaunchFile(path);
    await removeLaunchFile(path);
    expect(() => statSync(path)).toThrow(/ENOENT/);
  });

  it('escapes the address it redirects to', () => {
    const html = launchPageHtml('http://127.0.0.1:1/#a"><script>x</script>');
    expect(html).not.toContain('<script>');
    expect(html).toContain('#a&#34;&#62;&#60;script&#62;');
  });

  const missing = chromiumMissing();
  describe.skipIf(missing !== undefined)('in Chromium', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
    });

    it('leads to the wallet page, which works and has the token out of its address bar', async () => {
      const shell = await start();
      const path = await writeLaunchFile(shell.dataDir!, shell.url);
      const page = await browser.newPage();
      await page.goto(pathToFileURL(path).href);
      await page.waitForFunction(() => document.getElementById('app')?.textContent === 'fixture app loaded');
      expect(page.url()).toBe(`${shell.origin}/`);
      const status = await page.evaluate(() => window.koinos.call('vault:status'));
      expect(status).toMatchObject({ ok: true, value: { exists: false } });
      await page.close();
    });
  });
});
