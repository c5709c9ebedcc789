// A WalletConnect relay for the tests, on 127.0.0.1: the irn_* methods @walletconnect/core 2.25 calls, the two
// "custom publish" methods of the session handshake (wc_proposeSession, wc_approveSession), and the irn_subscription
// push. Messages are kept per topic (bounded) and handed to later subscribers, as the real relay's mailbox does.
import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

/** Bounds: what one socket may send at once, and what the relay keeps. */
const MAX_PAYLOAD = 512 * 1024;
const MAX_MESSAGES_PER_TOPIC = 64;
const MAX_TOPICS = 2_000;

interface Stored {
  topic: string;
  message: string;
  publishedAt: number;
  tag: number;
}

interface JsonRpcRequest {
  id: number | string;
  method?: string;
  params?: Record<string, unknown>;
}

/** A running relay: its ws:// URL, the methods it was asked for, and stop(). */
export interface TestRelay {
  url: string;
  /** Every method received, in order (tests check what the clients asked the relay for). */
  readonly methods: string[];
  /** What happened, one line each (client number, method, topic, tag): printed by a test that fails. */
  readonly trace: string[];
  /** Drops every connection (the clients reconnect), as a relay that restarts does. */
  dropConnections(): void;
  stop(): Promise<void>;
}

/**
 * Starts a relay on 127.0.0.1 and a free port.
 * @example
 * const relay = await startTestRelay();
 * const client = await SignClient.init({ projectId: 'test', relayUrl: relay.url });
 * await relay.stop();
 */
export async function startTestRelay(): Promise<TestRelay> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, maxPayload: MAX_PAYLOAD });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const mailbox = new Map<string, Stored[]>();
  /** topic → subscription id → socket */
  const subscribers = new Map<string, Map<string, WebSocket>>();
  const methods: string[] = [];
  const trace: string[] = [];
  const started = Date.now();
  const clientOf = new WeakMap<WebSocket, number>();
  let clients = 0;
  const note = (socket: WebSocket, what: string, topic?: unknown, tag?: unknown) =>
    trace.push(
      `${String(Date.now() - started).padStart(7)} ms  client ${clientOf.get(socket) ?? '?'}  ${what}${typeof topic === 'string' ? ` ${topic.slice(0, 8)}` : ''}${tag === undefined ? '' : ` tag ${String(tag)}`}`,
    );
  let pushId = Date.now() * 1000;

  const deliver = (socket: WebSocket, subscriptionId: string, stored: Stored) => {
    note(socket, '<- irn_subscription', stored.topic, stored.tag);
    socket.send(
      JSON.stringify({
        id: ++pushId,
        jsonrpc: '2.0',
        method: 'irn_subscription',
        params: {
          id: subscriptionId,
          data: { topic: stored.topic, message: stored.message, publishedAt: stored.publishedAt, tag: stored.tag },
        },
      }),
    );
  };

  const publish = (from: WebSocket, topic: unknown, message: unknown, tag: unknown) => {
    if (typeof topic !== 'string' || typeof message !== 'string') throw new Error('expected a topic and a message');
    const stored: Stored = { topic, message, publishedAt: Date.now(), tag: typeof tag === 'number' ? tag : 0 };
    note(from, '-> publish', topic, stored.tag);
    if (!mailbox.has(topic) && mailbox.size >= MAX_TOPICS) mailbox.delete(mailbox.keys().next().value!);
    const box = mailbox.get(topic) ?? [];
    box.push(stored);
    if (box.length > MAX_MESSAGES_PER_TOPIC) box.shift();
    mailbox.set(topic, box);
    for (const [subscriptionId, socket] of subscribers.get(topic) ?? [])
      if (socket !== from) deliver(socket, subscriptionId, stored);
  };

  const subscribe = (socket: WebSocket, topic: unknown, replay = true): string => {
    if (typeof topic !== 'string') throw new Error('expected a topic');
    const subscriptionId = createHash('sha256').update(topic).update(randomBytes(8)).digest('hex');
    const subs = subscribers.get(topic) ?? new Map<string, WebSocket>();
    subs.set(subscriptionId, socket);
    subscribers.set(topic, subs);
    note(socket, '-> subscribe', topic);
    // What was published before this subscription waits in the mailbox; the client drops what it saw already.
    if (replay)
      setImmediate(() => {
        for (const stored of mailbox.get(topic) ?? [])
          if (socket.readyState === socket.OPEN) deliver(socket, subscriptionId, stored);
      });
    return subscriptionId;
  };

  const unsubscribe = (topic: unknown, id: unknown) => {
    if (typeof topic === 'string' && typeof id === 'string') subscribers.get(topic)?.delete(id);
  };

  const handle = (socket: WebSocket, request: JsonRpcRequest): unknown => {
    const p = request.params ?? {};
    switch (request.method) {
      case 'irn_subscribe':
        return subscribe(socket, p['topic']);
      case 'irn_batchSubscribe':
        return (p['topics'] as unknown[]).map((topic) => subscribe(socket, topic));
      case 'irn_unsubscribe':
        unsubscribe(p['topic'], p['id']);
        return true;
      case 'irn_batchUnsubscribe':
        for (const s of (p['subscriptions'] as { topic: unknown; id: unknown }[]) ?? []) unsubscribe(s.topic, s.id);
        return true;
      case 'irn_publish':
        publish(socket, p['topic'], p['message'], p['tag']);
        return true;
      case 'irn_batchPublish':
        for (const m of (p['messages'] as Record<string, unknown>[]) ?? [])
          publish(socket, m['topic'], m['message'], m['tag']);
        return true;
      case 'irn_batchFetchMessages': {
        const topics = (p['topics'] as unknown[]).filter((t): t is string => typeof t === 'string');
        return {
          messages: topics
            .flatMap((t) => mailbox.get(t) ?? [])
            .map(({ topic, message, publishedAt, tag }) => ({ topic, message, publishedAt, tag })),
          hasMore: false,
        };
      }
      // The session handshake of core 2.2x: the relay publishes the parts to their topics and subscribes the sender to
      // the topic it will hear the answer on (the client skipped irn_subscribe for it).
      case 'wc_proposeSession':
        subscribe(socket, p['pairingTopic'], false);
        publish(socket, p['pairingTopic'], p['sessionProposal'], 1100);
        return true;
      case 'wc_approveSession':
        subscribe(socket, p['sessionTopic'], false);
        publish(socket, p['pairingTopic'], p['sessionProposalResponse'], 1101);
        publish(socket, p['sessionTopic'], p['sessionSettlementRequest'], 1102);
        return true;
      default:
        throw Object.assign(new Error(`method not found: ${String(request.method)}`), { rpcCode: -32601 });
    }
  };

  server.on('connection', (socket) => {
    clientOf.set(socket, ++clients);
    note(socket, 'connected');
    socket.on('message', (data) => {
      let request: JsonRpcRequest;
      try {
        request = JSON.parse(String(data)) as JsonRpcRequest;
      } catch {
        return;
      }
      if (request.method === undefined) return; // a client's answer to an irn_subscription push
      methods.push(request.method);
      if (!/^(irn_(batch)?(subscribe|publish)|wc_)/i.test(request.method)) note(socket, `-> ${request.method}`);
      try {
        const result = handle(socket, request);
        socket.send(JSON.stringify({ id: request.id, jsonrpc: '2.0', result }));
      } catch (error) {
        const code = (error as { rpcCode?: number }).rpcCode ?? -32602;
        socket.send(
          JSON.stringify({ id: request.id, jsonrpc: '2.0', error: { code, message: (error as Error).message } }),
        );
      }
    });
    socket.on('close', () => {
      note(socket, 'closed');
      for (const subs of subscribers.values()) for (const [id, s] of subs) if (s === socket) subs.delete(id);
    });
  });

  // The public relay pings its clients; @walletconnect/core drops and reopens a socket that hears nothing for 35 s,
  // which a step of a test on a loaded machine can take. Pinging as the real relay does keeps the connection as it
  // would be in use.
  const keepAlive = setInterval(() => {
    for (const client of server.clients) if (client.readyState === client.OPEN) client.ping();
  }, 10_000);
  keepAlive.unref();

  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}`,
    methods,
    trace,
    dropConnections: () => {
      for (const client of server.clients) client.terminate();
    },
    stop: () =>
      new Promise<void>((resolve) => {
        clearInterval(keepAlive);
        for (const client of server.clients) client.terminate();
        server.close(() => resolve());
      }),
  };
}
