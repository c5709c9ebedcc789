// Signature checks of the devnet, as the node makes them (chain `recover_public_key`): length, canonical form, then
// full public-key recovery (libsecp256k1, secp256k1Recovery.ts). With cores to spare the node recovers on worker
// threads under load, so that its main thread goes on answering requests; a lone signature with the workers idle is
// recovered on the calling thread when libsecp256k1 runs natively (cheaper than the round trip), and on two cores
// every one is (defaultSignatureThreads). openNode chooses how many workers.
import { Worker } from 'node:worker_threads';
import { isCanonicalSignature } from '../../koinos/keys.ts';
import {
  knownRecovered,
  RECOVERY_MODULES,
  recoverRemembered,
  recoverSignature,
  rememberRecovered,
} from '../vm/secp256k1Recovery.ts';

/** The outcome for one signature: the 33-byte compressed public key, or the node's error text. */
export type RecoveryResult = { publicKey: Uint8Array } | { error: string };

/** Recovers the public keys behind signatures over 32-byte digests. */
export interface SignatureRecoverer {
  /** One result per signature, in order; never rejects for a bad signature. */
  recover(items: { signature: Uint8Array; digest: Uint8Array }[]): Promise<RecoveryResult[]>;
  close(): Promise<void>;
}

/** The node's check before recovery: the error text, or undefined when the signature may be recovered. */
export function signatureFormatError(signature: Uint8Array): string | undefined {
  if (signature.length !== 65) return 'unexpected signature length';
  if (!isCanonicalSignature(signature)) return 'signature must be canonical';
  return undefined;
}

/** The result for a recovered key (null: the signature recovers no valid key). */
function resultOf(publicKey: Uint8Array | null): RecoveryResult {
  return publicKey ? { publicKey } : { error: 'public key is invalid' };
}

function recoverOne(signature: Uint8Array, digest: Uint8Array): RecoveryResult {
  const error = signatureFormatError(signature);
  if (error) return { error };
  return resultOf(recoverRemembered(signature, digest, true));
}

/** Recovers on the calling thread (tests, and machines with one core). */
export function inlineRecoverer(): SignatureRecoverer {
  return {
    recover: async (items) => items.map(({ signature, digest }) => recoverOne(signature, digest)),
    close: async () => {},
  };
}

/** Bytes of one item in a batch sent to a worker: the recovery id, the 64-byte signature, the 32-byte digest. */
const ITEM_BYTES = 1 + 64 + 32;
/** Bytes of one result a worker sends back: 1 when recovered, then the 33-byte compressed key (zeros when not). */
const RESULT_BYTES = 1 + 33;

// The worker is plain JavaScript given as text, so it runs unchanged under node, tsx, vitest and a bundled build. It
// loads libsecp256k1 as secp256k1Recovery.ts does: the native binding if it loads, else the WebAssembly build.
// A batch travels as one transferred buffer each way (see ITEM_BYTES, RESULT_BYTES): no structured clone of arrays.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
let recover;
try {
  const native = require(workerData.native);
  recover = (digest, signature, recoveryId) => native.ecdsaRecover(signature, recoveryId, digest, true);
} catch {
  const wasm = require(workerData.wasm);
  recover = (digest, signature, recoveryId) => wasm.recover(digest, signature, recoveryId, true);
}
parentPort.on('message', ({ id, items }) => {
  const count = items.length / ${ITEM_BYTES};
  const out = new Uint8Array(count * ${RESULT_BYTES});
  for (let i = 0; i < count; i++) {
    const at = i * ${ITEM_BYTES};
    try {
      if (items[at] > 3) continue;
      const key = recover(items.subarray(at + 65, at + 97), items.subarray(at + 1, at + 65), items[at]);
      if (key) {
        out[i * ${RESULT_BYTES}] = 1;
        out.set(key, i * ${RESULT_BYTES} + 1);
      }
    } catch {
      // left 0: not recovered
    }
  }
  parentPort.postMessage({ id, out }, [out.buffer]);
});
`;

interface PendingBatch {
  resolve: (keys: (Uint8Array | null)[]) => void;
  reject: (error: unknown) => void;
}

class WorkerLane {
  readonly worker: Worker;
  readonly waiting = new Map<number, PendingBatch>();
  inFlight = 0;
  alive = true;

  constructor(modules: { native?: string; wasm: string }) {
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { native: modules.native ?? '', wasm: modules.wasm },
    });
    this.worker.unref();
    this.worker.on('message', ({ id, out }: { id: number; out: Uint8Array }) => {
      const batch = this.waiting.get(id);
      if (!batch) return;
      this.waiting.delete(id);
      const keys: (Uint8Array | null)[] = new Array(out.length / RESULT_BYTES);
      for (let i = 0; i < keys.length; i++) {
        const at = i * RESULT_BYTES;
        keys[i] = out[at] === 1 ? out.slice(at + 1, at + RESULT_BYTES) : null;
      }
      this.inFlight -= keys.length;
      batch.resolve(keys);
    });
    const fail = (error: unknown): void => {
      this.alive = false;
      for (const batch of this.waiting.values()) batch.reject(error);
      this.waiting.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`signature worker exited with code ${code}`)));
  }
}

/** Signatures per message to a worker: small enough to keep the workers busy, large enough to amortise messaging. */
const BATCH_SIZE = 8;
/** Signatures waiting in the least busy worker beyond which this thread recovers a batch itself. */
const HELP_THRESHOLD = 48;

/** A signature that passed signatureFormatError (65 bytes, header first) and the digest it signs. */
type Checked = [signature: Uint8Array, digest: Uint8Array];

interface Queued {
  items: Checked[];
  requests: { count: number; resolve: (keys: (Uint8Array | null)[]) => void; reject: (error: unknown) => void }[];
}

/** Recovery of pre-checked items on the calling thread (the workers' fallback). */
function recoverHere(items: Checked[]): (Uint8Array | null)[] {
  return items.map(([signature, digest]) => recoverSignature(signature, digest, true));
}

/** The items as one buffer for a worker: per item the recovery id (header >> 5), the signature body, the digest. */
function packItems(items: Checked[]): Uint8Array<ArrayBuffer> {
  const packed = new Uint8Array(items.length * ITEM_BYTES);
  for (let i = 0; i < items.length; i++) {
    const [signature, digest] = items[i]!;
    const at = i * ITEM_BYTES;
    // A digest of another length fails recovery, as recovery fails for it: 0xff is no recovery id.
    packed[at] = digest.length === 32 ? signature[0]! >> 5 : 0xff;
    packed.set(signature.subarray(1, 65), at + 1);
    packed.set(digest.subarray(0, 32), at + 65);
  }
  return packed;
}

/**
 * How many recovery workers a node starts on a machine of `cores` cores (`native`: libsecp256k1 runs natively here):
 * workers on the other cores, at most two (recovery is a small part of a submission); none on one or two cores with
 * native recovery. On two cores the node's thread and its HTTP thread already take both, and a worker's round trip
 * (two wake-ups of sleeping threads) costs the node's thread about as much as the ~50 µs recovery itself: at 3,000
 * transfers/s, server CPU per transfer 0.229-0.254 ms recovering here against 0.257-0.262 ms with a worker, and the
 * answer's p99 8.8-9.4 against 9.8-11.2 ms. WebAssembly recovery (~190 µs here, four times native) keeps a worker.
 */
export function defaultSignatureThreads(cores: number, native: boolean): number {
  if (cores > 2) return Math.min(2, cores - 1);
  return native ? 0 : 1;
}

/** Recovers on worker threads (see {@link workerRecoverer}). */
export interface WorkerRecoverer extends SignatureRecoverer {
  /** Signatures handed to a worker so far (the others were recovered on the calling thread). */
  readonly offloaded: number;
}

/**
 * Recovers on `threads` worker threads, started on first need. Requests that arrive in the same turn of the event loop
 * travel as one message, so a burst of submissions costs one round trip per batch rather than per signature. A turn
 * with fewer than `offloadFrom` signatures while no worker is busy is recovered on the calling thread: with native
 * libsecp256k1 one recovery costs less than the round trip, and only concurrent requests gain from other cores.
 * Recovers on the calling thread when no worker can start or every worker has died.
 */
export function workerRecoverer(threads: number, offloadFrom = 1): WorkerRecoverer {
  let lanes: WorkerLane[] | undefined;
  const startedLanes = (): WorkerLane[] => {
    if (!lanes) {
      try {
        lanes = Array.from({ length: threads }, () => new WorkerLane(RECOVERY_MODULES));
      } catch {
        lanes = [];
      }
    }
    return lanes;
  };
  let nextId = 1;
  let queue: Queued | undefined;
  let offloaded = 0;

  const deliver = (batch: Queued, keys: (Uint8Array | null)[]): void => {
    let offset = 0;
    for (const request of batch.requests) {
      request.resolve(keys.slice(offset, offset + request.count));
      offset += request.count;
    }
  };

  const flush = (): void => {
    const batch = queue!;
    queue = undefined;
    if (batch.items.length < offloadFrom && !lanes?.some((lane) => lane.inFlight > 0)) {
      deliver(batch, recoverHere(batch.items));
      return;
    }
    const alive = startedLanes().filter((lane) => lane.alive);
    if (alive.length === 0) {
      deliver(batch, recoverHere(batch.items));
      return;
    }
    const lane = alive.reduce((a, b) => (b.inFlight < a.inFlight ? b : a));
    if (lane.inFlight >= HELP_THRESHOLD) {
      // The workers are behind: this thread has time to spare (else its own requests would be the bottleneck).
      deliver(batch, recoverHere(batch.items));
      return;
    }
    const id = nextId++;
    lane.inFlight += batch.items.length;
    offloaded += batch.items.length;
    lane.waiting.set(id, {
      resolve: (keys) => deliver(batch, keys),
      // A worker that dies mid-batch: recover the batch here rather than fail the requests.
      reject: () => deliver(batch, recoverHere(batch.items)),
    });
    const packed = packItems(batch.items);
    lane.worker.postMessage({ id, items: packed }, [packed.buffer]);
  };

  return {
    get offloaded() {
      return offloaded;
    },
    async recover(items) {
      const results: RecoveryResult[] = new Array(items.length);
      const toWorker: Checked[] = [];
      const slots: number[] = [];
      items.forEach(({ signature, digest }, i) => {
        const error = signatureFormatError(signature);
        if (error) {
          results[i] = { error };
          return;
        }
        // Recovered already, for an earlier submission of the same transaction or by a contract's check_authority.
        const known = knownRecovered(signature, digest, true);
        if (known !== undefined) {
          results[i] = resultOf(known);
          return;
        }
        toWorker.push([signature, digest]);
        slots.push(i);
      });
      if (toWorker.length === 0) return results;
      const keys = await new Promise<(Uint8Array | null)[]>((resolve, reject) => {
        if (!queue) {
          const batch: Queued = { items: [], requests: [] };
          queue = batch;
          setImmediate(() => {
            if (queue === batch) flush();
          });
        }
        queue.items.push(...toWorker);
        queue.requests.push({ count: toWorker.length, resolve, reject });
        // Hand over full batches at once, so that the workers start while this thread goes on with other work.
        if (queue.items.length >= BATCH_SIZE) flush();
      });
      slots.forEach((slot, j) => {
        const key = keys[j] ?? null;
        rememberRecovered(toWorker[j]![0], toWorker[j]![1], true, key);
        results[slot] = resultOf(key);
      });
      return results;
    },
    async close() {
      lanes ??= []; // none starts after the close: a late request is recovered here
      for (const lane of lanes) lane.alive = false;
      await Promise.all(lanes.map((lane) => lane.worker.terminate()));
    },
  };
}
