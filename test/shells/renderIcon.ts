// Renders resources/icon.svg to the 512x512 PNG electron-builder packs (resources/icon.png) with the system Chromium.
// Run `npx tsx test/shells/renderIcon.ts` after editing the SVG; the packaging test checks the PNG still matches it.
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from './chromium.ts';

// The body given to waitForFunction runs in the page; the Node tsconfig has no DOM.
declare const document: { querySelector(selector: string): unknown };

export const ICON_SVG = resolve(import.meta.dirname, '../../resources/icon.svg');
export const ICON_PNG = resolve(import.meta.dirname, '../../resources/icon.png');
export const ICON_SIZE = 512;

/** The SVG drawn at 512x512 on a transparent background, as PNG bytes. */
export async function renderIcon(svgPath: string = ICON_SVG): Promise<Buffer> {
  const svg = await readFile(svgPath, 'utf8');
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: ICON_SIZE, height: ICON_SIZE }, deviceScaleFactor: 1 });
    const dataUrl = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
    await page.setContent(
      `<html><body style="margin:0;background:transparent"><img src="${dataUrl}" width="${ICON_SIZE}" height="${ICON_SIZE}" style="display:block"></body></html>`,
    );
    await page.waitForFunction(
      () => (document.querySelector('img') as { complete: boolean } | null)?.complete === true,
    );
    return await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: ICON_SIZE, height: ICON_SIZE } });
  } finally {
    await browser.close();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await writeFile(ICON_PNG, await renderIcon());
  console.log(`wrote ${ICON_PNG}`);
}
