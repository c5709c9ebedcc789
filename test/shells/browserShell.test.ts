// The browser shell over real HTTP: the contract works end to end against the wallet's devnet, and every request that
// is not the wallet page's own is refused (no token, a wrong token, another Origin or Host, an unknown channel,
// another method, an oversized or malformed body); the page is served with the bridge and a strict policy.
import { existsSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { networkInterfaces } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IPC_CHANNELS, type IpcEvents } from '../../src-main/ipc/contract.ts';
import { createEventHub } from '../../src-main/ipc/eventHub.ts';
import {
  MAX_BODY_BYTES,
  REPLAYED_EVENTS,
  startBrowserShell,
  type BrowserShell,
} from '../../src-main/shells/browser/browserShell.ts';
import { LOCK_FILE_NAME } from '../../src-main/wallet/dataFolderLock.ts';
import { browserShells, eventsRequest, headersOnly, ipc, raw, streamed, txEvent } from './browserShellHelpers.ts';

const start = browserShells();

describe('browser shell: calls', () => {
  it('carries real calls end to end: the Local network starts the devnet on first use, and it agrees over its own HTTP', async () => {
    const shell = await start();
    expect((await ipc(shell, 'devnet:status')).json).toEqual({ ok: true, value: { running: false, accounts: [] } });
    const head = await ipc(shell, 'networks:head', [{ id: 'local' }]);
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(head.json.ok).toBe(true);
    expect(head.json.value).toMatchObject({
      networkId: 'local',
      height: expect.stringMatching(/^\d+$/),
      chainId: expect.any(String),
    });
    const status = (await ipc(shell, 'devnet:status')).json.value;
    expect(status).toMatchObject({ running: true, chainId: head.json.value.chainId });
    const chainId = (await (await fetch(`${status.url}/v1/chain/id`)).json()) as { value: string };
    expect(status.chainId).toBe(chainId.value);
    expect(status.accounts).toHaveLength(10);
  });

  it('answers bad arguments with the envelope, as the Electron shell does', async () => {
    const shell = await start();
    const answer = await ipc(shell, 'devnet:importAccount', [{ index: -1, watchOnly: true }]);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      ok: false,
      error: {
        code: 'INVALID_ARGUMENT',
        shortMessage: 'devnet:importAccount: expected index to be an integer from 0 to 999, got number -1',
      },
    });
  });

  it('holds its data folder while it runs: a second shell on it is refused before it opens the wallet', async () => {
    const shell = await start();
    const lockFile = join(shell.dataDir!, LOCK_FILE_NAME);
    expect(existsSync(lockFile)).toBe(true);
    const second = await startBrowserShell({ dataDir: shell.dataDir!, port: 0, log: () => {} }).catch(
      (error: unknown) => error,
    );
    expect(second).toMatchObject({
      code: 'STORAGE_FAILED',
      shortMessage: expect.stringContaining(`in use by the browser shell (pid ${process.pid},`),
    });
    await shell.stop();
    expect(existsSync(lockFile)).toBe(false);
  });

  it('stops cleanly while a page listens: a wallet event after the streams ended reaches none of them', async () => {
    const shell = await start();
    expect((await ipc(shell, 'vault:create', [{ password: 'a long enough password' }])).json.ok).toBe(true);
    const events = await new Promise<IncomingMessage>((resolve, reject) =>
      eventsRequest(shell, resolve).on('error', reject),
    );
    expect(events.statusCode).toBe(200);
    events.resume();
    // Stopping ends the streams at once; each one's 'close' comes later. A wallet event in between (here a lock, as
    // when the wallet closes) written to an ended stream would be an error event nobody hears, thrown into the process.
    const uncaught: unknown[] = [];
    const record = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', record);
    try {
      const stopping = shell.stop();
      await shell.wallet.handlers['vault:lock']();
      await stopping;
      // A stream reports a write after its end on a later tick: let those run.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('uncaughtException', record);
    }
    expect(uncaught).toEqual([]);
  });

  it('uses a new 256-bit token on every launch', async () => {
    const [a, b] = [await start(), await start()];
    expect(a.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.token).not.toBe(b.token);
    expect(a.url).toBe(`${a.origin}/#koinos-token=${a.token}`);
    expect(a.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });
});

describe('browser shell: push events', () => {
  /**
   * The first `count` events of a stream opened with `headers`, as "id event transaction"; `whenOpen` runs once the stream
   * has answered, when the shell has it: what is sent from then on reaches it.
   */
  function firstEvents(
    shell: BrowserShell,
    count: number,
    headers: Record<string, string>,
    whenOpen: () => void = () => {},
  ): Promise<string[]> {
    return new Promise((resolve, reject) => {
      let text = '';
      const request = eventsRequest(
        shell,
        (response) => {
          response.on('data', (chunk: Buffer) => {
            text += chunk.toString('utf8');
            // Whole records (the text after the last blank line is not one yet), comments left out.
            const records = text
              .split('\n\n')
              .slice(0, -1)
              .filter((r) => r.startsWith('id: '));
            if (records.length < count) return;
            request.destroy();
            resolve(
              records.slice(0, count).map((r) => {
                const [id, event, data] = r.split('\n').map((line) => line.slice(line.indexOf(' ') + 1));
                return `${id} ${event} ${(JSON.parse(data!) as IpcEvents['tx:update']).transactionId}`;
              }),
            );
          });
          whenOpen();
        },
        headers,
      );
      request.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? undefined : reject(error)));
    });
  }

  it('replays to a stream the events after the bridge script, or after the last one it saw, not older ones', async () => {
    // A hub the test drives stands in for the wallet's event source; the transport under test is the shell's.
    const hub = createEventHub(() => {});
    const base = await start();
    const shell = await start({ wallet: { ...base.wallet, events: hub } });
    const bridge = async () => (await raw(shell, { path: '/koinos-bridge.js' })).text;
    expect(await bridge()).toContain('let seen = "0";');
    // A page loaded here whose first calls are answered before its stream opens: the events sent in between reach it.
    hub.emit('tx:update', txEvent(1));
    hub.emit('tx:update', txEvent(2));
    expect(await bridge()).toContain('let seen = "2";');
    expect(await firstEvents(shell, 2, { 'last-event-id': '0' })).toEqual(['1 tx:update tx-1', '2 tx:update tx-2']);
    // A stream reopened after a drop: the events after the last one it saw.
    expect(await firstEvents(shell, 1, { 'last-event-id': '1' })).toEqual(['2 tx:update tx-2']);
    // None named (or a name that is not a number): only what comes once the stream is open.
    expect(await firstEvents(shell, 1, {}, () => hub.emit('tx:update', txEvent(3)))).toEqual(['3 tx:update tx-3']);
    expect(await firstEvents(shell, 1, { 'last-event-id': '2x' }, () => hub.emit('tx:update', txEvent(4)))).toEqual([
      '4 tx:update tx-4',
    ]);
    // The shell keeps the last REPLAYED_EVENTS: a page that saw none of them gets those.
    const last = REPLAYED_EVENTS + 10;
    for (let n = 5; n <= last; n++) hub.emit('tx:update', txEvent(n));
    const oldest = last - REPLAYED_EVENTS + 1;
    expect(await firstEvents(shell, 1, { 'last-event-id': '0' })).toEqual([`${oldest} tx:update tx-${oldest}`]);
  });
});

describe('browser shell: refusals', () => {
  it('refuses a call without the token, or with a wrong one, without running it', async () => {
    const shell = await start();
    const wrong = shell.token.slice(0, -1) + (shell.token.endsWith('A') ? 'B' : 'A');
    for (const token of ['', wrong, shell.token + 'x', shell.token.toLowerCase()]) {
      const answer = await ipc(shell, 'devnet:status', [], { 'x-koinos-token': token });
      expect(answer.status, `token ${token.length} chars`).toBe(403);
      expect(answer.json.error.shortMessage).toBe(
        'The request was refused: open the wallet with the address the browser shell printed.',
      );
    }
    const withoutHeader = await raw(shell, {
      method: 'POST',
      path: '/ipc/devnet:status',
      headers: { origin: shell.origin, 'content-type': 'application/json' },
      body: '[]',
    });
    expect(withoutHeader.status).toBe(403);
  });

  it('refuses a call from another Origin or without one, even with the token', async () => {
    const shell = await start();
    const port = Number(new URL(shell.origin).port);
    for (const origin of ['http://evil.example', `http://localhost:${port}`, `http://127.0.0.1:${port + 1}`, 'null']) {
      const answer = await ipc(shell, 'devnet:status', [], { origin });
      expect(answer.status, origin).toBe(403);
      expect(answer.json.error.shortMessage).toBe(
        'The request was refused because it did not come from the wallet page.',
      );
    }
    const noOrigin = await raw(shell, {
      method: 'POST',
      path: '/ipc/devnet:status',
      headers: { 'x-koinos-token': shell.token, 'content-type': 'application/json' },
      body: '[]',
    });
    expect(noOrigin.status).toBe(403);
  });

  it('refuses another Host name (DNS rebinding), for pages and calls alike', async () => {
    const shell = await start();
    const port = new URL(shell.origin).port;
    for (const path of ['/', '/koinos-bridge.js']) {
      expect((await raw(shell, { path, headers: { host: `rebind.evil.example:${port}` } })).status).toBe(403);
    }
    expect((await ipc(shell, 'devnet:status', [], { host: `localhost:${port}` })).status).toBe(403);
  });

  it('refuses channels outside the contract, with the token', async () => {
    const shell = await start();
    expect(IPC_CHANNELS).not.toContain('vault:export');
    for (const channel of ['vault:export', '__proto__', 'constructor', '', '%E0%A4%A']) {
      const answer = await raw(shell, {
        method: 'POST',
        path: `/ipc/${channel}`,
        headers: { origin: shell.origin, 'x-koinos-token': shell.token, 'content-type': 'application/json' },
        body: '[]',
      });
      expect(answer.status, channel).toBe(404);
      expect(answer.json.ok).toBe(false);
    }
  });

  it('refuses other methods on the call and event paths', async () => {
    const shell = await start();
    for (const method of ['GET', 'PUT', 'DELETE', 'OPTIONS']) {
      const answer = await raw(shell, {
        method,
        path: '/ipc/devnet:status',
        headers: { origin: shell.origin, 'x-koinos-token': shell.token },
      });
      expect(answer.status, method).toBe(405);
      expect(
        (
          await raw(shell, {
            method,
            path: '/events',
            headers: { origin: shell.origin, 'x-koinos-token': shell.token },
          })
        ).status,
      ).toBe(405);
    }
    expect((await raw(shell, { method: 'POST', path: '/', headers: { origin: shell.origin } })).status).toBe(405);
  });

  it('refuses an oversized body without reading it all, and bodies that are not JSON', async () => {
    const shell = await start();
    // Declared too large: refused from the headers alone, before any of the body is sent.
    const declared = await headersOnly(shell, '/ipc/offline:inspect', {
      origin: shell.origin,
      'x-koinos-token': shell.token,
      'content-type': 'application/json',
      'content-length': MAX_BODY_BYTES + 1,
    });
    expect(declared).toBe(413);
    // Sent in chunks without a length: refused once it passes the limit.
    const big = await streamed(shell, '/ipc/offline:inspect', MAX_BODY_BYTES + 64 * 1024);
    expect(big).toBe(413);
    const text = await raw(shell, {
      method: 'POST',
      path: '/ipc/devnet:status',
      headers: { origin: shell.origin, 'x-koinos-token': shell.token, 'content-type': 'text/plain' },
      body: '[]',
    });
    expect(text.status).toBe(415);
    const notJson = await raw(shell, {
      method: 'POST',
      path: '/ipc/devnet:status',
      headers: { origin: shell.origin, 'x-koinos-token': shell.token, 'content-type': 'application/json' },
      body: '[',
    });
    expect(notJson.status).toBe(400);
    expect(notJson.json.error.shortMessage).toBe('expected the arguments as a JSON array, got text that is not JSON');
    // The argument list itself is checked by the same parsers as in Electron.
    const notList = await ipc(shell, 'devnet:status', {} as unknown as unknown[]);
    expect(notList.json).toEqual({
      ok: false,
      error: { code: 'INVALID_ARGUMENT', shortMessage: 'devnet:status: expected no arguments, got an object' },
    });
  });

  it('listens on loopback only', async () => {
    const shell = await start();
    const port = Number(new URL(shell.origin).port);
    const external = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && i.family === 'IPv4' && !i.internal);
    if (!external) return; // a machine without another interface has nothing else to try
    const reached = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: external.address, port }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    expect(reached).toBe(false);
  });
});

describe('browser shell: the page', () => {
  it('serves index.html with the bridge injected before the app script, and a strict policy', async () => {
    const shell = await start();
    const page = await raw(shell, { path: '/' });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    const bridgeAt = page.text.indexOf('<script src="/koinos-bridge.js"></script>');
    expect(bridgeAt).toBeGreaterThan(0);
    expect(bridgeAt).toBeLessThan(page.text.indexOf('<script type="module"'));
    expect(page.text).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.text).not.toContain(shell.token);
  });

  it('serves the bridge as a same-origin script that names the contract and holds no token', async () => {
    const shell = await start();
    const bridge = await raw(shell, { path: '/koinos-bridge.js' });
    expect(bridge.status).toBe(200);
    expect(bridge.headers['content-type']).toBe('text/javascript; charset=utf-8');
    for (const channel of IPC_CHANNELS) expect(bridge.text).toContain(`"${channel}"`);
    expect(bridge.text).not.toContain(shell.token);
  });

  it('serves files of the renderer folder only', async () => {
    const shell = await start();
    expect((await raw(shell, { path: '/app.js' })).status).toBe(200);
    for (const path of [
      '/../package.json',
      '/%2e%2e/package.json',
      '/..%2fpackage.json',
      '/.env',
      '/missing.js',
      '/%00',
    ]) {
      const answer = await raw(shell, { path });
      expect(answer.status, path).toBe(404);
    }
  });
});
