// The dApp window's decisions without Electron: which pages open, the per-origin partition, the hardened options,
// which navigations stay, ask or are refused (one question open at a time), and which IPC sender frames speak for the
// page.
import { describe, expect, it } from 'vitest';
import {
  dappOrigin,
  dappPartition,
  dappWindowOptions,
  navigationDecision,
  oneQuestionAtATime,
  senderOrigin,
} from '../../src-main/shells/electron/dappWindowPolicy.ts';

const APP = 'https://app.example';

describe('dApp window policy', () => {
  it('opens https pages and http ones on this computer only', () => {
    expect(dappOrigin('https://app.example/swap?x=1')).toBe(APP);
    expect(dappOrigin('http://127.0.0.1:5173/')).toBe('http://127.0.0.1:5173');
    expect(dappOrigin('http://localhost:3000/')).toBe('http://localhost:3000');
    for (const bad of [
      'http://app.example/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'app://wallet/index.html',
      'https://user:pw@app.example/',
      'not a url',
    ]) {
      expect(() => dappOrigin(bad), bad).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    }
  });

  it('gives each origin its own in-memory partition and a sandboxed, isolated window without Node', () => {
    expect(dappPartition(APP)).toBe('dapp:https://app.example');
    expect(dappPartition(APP)).not.toMatch(/^persist:/);
    const { webPreferences } = dappWindowOptions('/p/dapp.cjs', APP, dappPartition(APP));
    expect(webPreferences).toMatchObject({
      preload: '/p/dapp.cjs',
      partition: 'dapp:https://app.example',
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      webviewTag: false,
    });
  });

  it('keeps the page on its origin, asks before another one, and refuses other schemes', () => {
    expect(navigationDecision({ url: `${APP}/other`, isMainFrame: true }, APP)).toBe('allow');
    expect(navigationDecision({ url: 'https://evil.example/', isMainFrame: true }, APP)).toBe('ask');
    expect(navigationDecision({ url: 'http://evil.example/', isMainFrame: true }, APP)).toBe('deny');
    expect(navigationDecision({ url: 'file:///etc/passwd', isMainFrame: true }, APP)).toBe('deny');
    expect(navigationDecision({ url: 'app://wallet/index.html', isMainFrame: true }, APP)).toBe('deny');
    // Frames load the web (they never reach the wallet), never local files or the app scheme.
    expect(navigationDecision({ url: 'https://widget.example/', isMainFrame: false }, APP)).toBe('allow');
    expect(navigationDecision({ url: 'about:blank', isMainFrame: false }, APP)).toBe('allow');
    expect(navigationDecision({ url: 'file:///etc/passwd', isMainFrame: false }, APP)).toBe('deny');
    expect(navigationDecision({ url: 'app://wallet/index.html', isMainFrame: false }, APP)).toBe('deny');
  });

  it('takes the origin from the top frame of the window, never from a subframe or another origin', () => {
    expect(senderOrigin({ url: `${APP}/x`, origin: APP, parent: null }, APP)).toBe(APP);
    expect(
      senderOrigin({ url: 'https://evil.example/', origin: 'https://evil.example', parent: {} }, APP),
    ).toBeUndefined();
    expect(senderOrigin({ url: `${APP}/x`, origin: APP, parent: {} }, APP)).toBeUndefined();
    expect(
      senderOrigin({ url: 'https://evil.example/', origin: 'https://evil.example', parent: null }, APP),
    ).toBeUndefined();
    expect(senderOrigin({ url: `${APP}/x`, origin: APP, parent: null }, undefined)).toBeUndefined();
    expect(senderOrigin(null, APP)).toBeUndefined();
  });

  it('asks one question at a time: what the page asks while one is open is dropped, and asked again once answered', async () => {
    const asked: string[] = [];
    const answers: (() => void)[] = [];
    const elsewhere = oneQuestionAtATime((target: string) => {
      asked.push(target);
      return new Promise<void>((resolve) => answers.push(resolve));
    });
    // A page that calls window.open in a loop: one dialog, not a hundred stacked over the window.
    for (let i = 0; i < 100; i++) elsewhere(`https://evil${i}.example/`);
    expect(asked).toEqual(['https://evil0.example/']);
    answers[0]!();
    // The gate opens once the answer's callbacks ran (one turn of the event loop).
    await new Promise((resolve) => setImmediate(resolve));
    elsewhere('https://next.example/');
    elsewhere('https://dropped.example/');
    expect(asked).toEqual(['https://evil0.example/', 'https://next.example/']);
  });
});
