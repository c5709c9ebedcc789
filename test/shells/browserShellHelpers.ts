// Helpers of the browser shell tests: a shell on port 0 over a wallet in a throwaway data folder with its devnet on
// port 0, a renderer folder with the real index.html, and raw HTTP calls that can break every rule on purpose.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach } from 'vitest';
import type { IpcEvents } from '../../src-main/ipc/contract.ts';
import {
  startBrowserShell,
  type BrowserShell,
  type BrowserShellOptions,
} from '../../src-main/shells/browser/browserShell.ts';
import { KEYTAR, TEST_SCRYPT, removeService, uniqueService } from '../wallet/vault/helpers.ts';

/** A renderer folder like out/renderer: the real index.html (its CSP), with a stand-in app script. */
export async function rendererFixture(dir: string): Promise<string> {
  const source = await readFile(resolve(import.meta.dirname, '../../src-renderer/index.html'), 'utf8');
  const html = source.replace(
    /<script type="module" src="[^"]*"><\/script>/,
    '<script type="module" src="./app.js"></script>',
  );
  if (html === source) throw new Error('src-renderer/index.html no longer has the module script this fixture replaces');
  await writeFile(join(dir, 'index.html'), html);
  await writeFile(join(dir, 'app.js'), "document.getElementById('app').textContent = 'fixture app loaded';\n");
  return dir;
}

/**
 * Starts browser shells for a test and stops them (and removes their folders and keychain entries) after it. The
 * wallet uses the real keychain under a unique service name, a cheap scrypt cost, and a devnet on a free port.
 */
export function browserShells(): (options?: Partial<BrowserShellOptions>) => Promise<BrowserShell> {
  const started: { shell: BrowserShell; dirs: string[]; service: string }[] = [];
  afterEach(async () => {
    for (const { shell, dirs, service } of started.splice(0)) {
      await shell.stop();
      for (const dir of dirs) await rm(dir, { recursive: true, force: true });
      await removeService(service).catch(() => undefined);
    }
  });
  return async (options = {}) => {
    const dataDir = await mkdtemp(join(tmpdir(), 'koinos-browser-shell-'));
    const rendererDir =
      options.rendererDir ?? (await rendererFixture(await mkdtemp(join(tmpdir(), 'koinos-renderer-'))));
    const service = options.vault?.keychainService ?? uniqueService();
    const shell = await startBrowserShell({
      dataDir,
      rendererDir,
      port: 0,
      devnet: { port: 0 },
      log: () => {},
      keychain: KEYTAR,
      ...options,
      vault: { scryptCost: TEST_SCRYPT, ...options.vault, keychainService: service },
    });
    started.push({ shell, dirs: [dataDir, rendererDir], service });
    return shell;
  };
}

/** A head:new push at `height` (a stand-in for the wallet's events in the transport tests). */
export function headEvent(height: number): IpcEvents['head:new'] {
  return {
    networkId: 'local',
    chainId: 'EiA',
    height: String(height),
    time: '0',
    lastIrreversible: '0',
    lagMs: '0',
    stale: false,
  };
}

/**
 * A tx:update push for transaction `tx-N` (a stand-in for the wallet's events in the transport tests: unlike head:new,
 * the shell forwards it whether a page listens or not).
 */
export function txEvent(n: number): IpcEvents['tx:update'] {
  return { transactionId: `tx-${n}`, networkId: 'local', status: 'included', blockHeight: String(n) };
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

export interface RawRequest {
  method?: string;
  path: string;
  headers?: Record<string, string | number>;
  body?: string | Buffer;
}

/** One HTTP request with exactly the headers given (fetch would add or forbid some, such as Host and Origin). */
export function raw(shell: BrowserShell, req: RawRequest): Promise<RawAnswer> {
  const url = new URL(shell.origin);
  return new Promise((resolvePromise, reject) => {
    const r = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: req.method ?? 'GET',
        path: req.path,
        headers: req.headers,
        setHost: !req.headers || !('host' in req.headers),
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (c: Buffer) => chunks.push(c));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolvePromise({ status: response.statusCode ?? 0, headers: response.headers, text, json });
        });
      },
    );
    r.on('error', reject);
    r.end(req.body);
  });
}

/** A call the way the bridge makes it: POST /ipc/<channel>, JSON args, the token and the shell's Origin. */
export function ipc(
  shell: BrowserShell,
  channel: string,
  args: unknown[] = [],
  headers: Record<string, string> = {},
): Promise<RawAnswer> {
  const body = JSON.stringify(args);
  return raw(shell, {
    method: 'POST',
    path: `/ipc/${encodeURIComponent(channel)}`,
    headers: {
      origin: shell.origin,
      'x-koinos-token': shell.token,
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      ...headers,
    },
    body,
  });
}

/**
 * Opens the shell's event stream as the bridge does (POST /events with the token and the shell's Origin, and
 * `headers`); `onResponse` gets the stream. The caller listens for the request's errors.
 */
export function eventsRequest(
  shell: BrowserShell,
  onResponse: (response: IncomingMessage) => void,
  headers: Record<string, string> = {},
): ClientRequest {
  const url = new URL(shell.origin);
  const request = httpRequest(
    {
      host: url.hostname,
      port: url.port,
      method: 'POST',
      path: '/events',
      headers: { origin: shell.origin, 'x-koinos-token': shell.token, ...headers },
    },
    onResponse,
  );
  request.end();
  return request;
}

/** Sends only the headers of a POST (the body never comes) and resolves the status the shell answers with. */
export function headersOnly(
  shell: BrowserShell,
  path: string,
  headers: Record<string, string | number>,
): Promise<number> {
  const url = new URL(shell.origin);
  return new Promise((resolvePromise, reject) => {
    const r = httpRequest({ host: url.hostname, port: url.port, method: 'POST', path, headers }, (response) => {
      response.resume();
      resolvePromise(response.statusCode ?? 0);
      r.destroy();
    });
    r.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? undefined : reject(error)));
    r.flushHeaders();
  });
}

/** Streams `size` bytes of body in chunks (no content-length) with the token and Origin; resolves the status. */
export function streamed(shell: BrowserShell, path: string, size: number): Promise<number> {
  const url = new URL(shell.origin);
  return new Promise((resolvePromise, reject) => {
    const r = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path,
        headers: { origin: shell.origin, 'x-koinos-token': shell.token, 'content-type': 'application/json' },
      },
      (response) => {
        response.resume();
        resolvePromise(response.statusCode ?? 0);
      },
    );
    // The shell closes the connection once it has answered; writes after that fail, as they should.
    r.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNRESET' || error.code === 'EPIPE' ? undefined : reject(error),
    );
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const pump = (): void => {
      while (sent < size && !r.destroyed) {
        sent += chunk.length;
        if (!r.write(chunk)) {
          r.once('drain', pump);
          return;
        }
      }
      if (!r.destroyed) r.end();
    };
    pump();
  });
}
