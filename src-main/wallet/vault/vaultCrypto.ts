// The vault's cryptography: a key derived from a password with scrypt, and AES-256-GCM sealing of each secret with a
// fresh random nonce and the entry's identity as associated data (so entries cannot be swapped or replayed elsewhere).
import { createCipheriv, createDecipheriv, randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { WalletError } from '../../koinos/errors.ts';

/** scrypt cost: N (a power of two), r and p, and the salt (base64) they are used with. */
export interface ScryptParams {
  N: number;
  r: number;
  p: number;
  salt: string;
}

/** Cost without the salt, for callers that choose the cost (tests make it cheap, the wallet calibrates it). */
export type ScryptCost = Omit<ScryptParams, 'salt'>;

/** The floor below which calibration never goes, whatever the machine: 2^15 with r = 8 (about 32 MB of work). */
export const MIN_SCRYPT_LOG_N = 15;
/** The ceiling calibration never exceeds (memory: 128 * N * r bytes = 1 GB at 2^20). */
export const MAX_SCRYPT_LOG_N = 20;
/** The time one unlock should take on the machine that created the wallet. */
const TARGET_UNLOCK_MS = 250;

const KEY_LENGTH = 32;
const NONCE_LENGTH = 12;
const TAG_LENGTH = 16;
/** Prefix of a sealed value's text form; the version lets a later format live beside this one. */
const SEALED_PREFIX = 'v1.';

/**
 * Derives the 32-byte AES key of a password (scrypt runs in libuv's thread pool: the event loop stays free).
 * @throws WalletError INVALID_ARGUMENT for parameters the wallet never writes (r other than 8, p other than 1, N not a
 *   power of two or above 2^20) or that scrypt refuses; the password never appears in the message.
 * @example
 * const key = await deriveKey('correct horse', { N: 65536, r: 8, p: 1, salt: newSalt() });
 */
export async function deriveKey(password: string, params: ScryptParams): Promise<Uint8Array> {
  // The last line of defence whatever the caller checked: no run above the wallet's own ceiling (1 GB at 2^20).
  const problem = scryptParamsProblem(params, 2);
  if (problem) throw new WalletError('INVALID_ARGUMENT', problem);
  const salt = Buffer.from(params.salt, 'base64');
  const maxmem = 256 * params.N * params.r * params.p + (32 << 20);
  return await new Promise<Uint8Array>((resolve, reject) => {
    scryptCallback(
      password.normalize('NFKC'),
      salt,
      KEY_LENGTH,
      { N: params.N, r: params.r, p: params.p, maxmem },
      (error, key) => {
        if (error) {
          reject(
            new WalletError(
              'INVALID_ARGUMENT',
              `expected scrypt parameters this machine can run, got N=${params.N} r=${params.r} p=${params.p}`,
              { details: error.message },
            ),
          );
        } else {
          // A copy of our own: Node may hand out a slice of its shared buffer pool, which outlives a zero-fill of ours.
          const own = Uint8Array.from(key);
          key.fill(0);
          resolve(own);
        }
      },
    );
  });
}

/** A fresh random 16-byte salt, base64. */
export function newSalt(): string {
  return randomBytes(16).toString('base64');
}

/**
 * Encrypts `plaintext` with AES-256-GCM under `key`, binding `identity` (the entry's name) as associated data.
 * A fresh random nonce is drawn on every call.
 * @example
 * const text = seal(key, utf8('secret'), 'wallet-id/gen/secret-id'); // 'v1.<nonce>.<ciphertext+tag>'
 */
export function seal(key: Uint8Array, plaintext: Uint8Array, identity: string): string {
  const nonce = randomBytes(NONCE_LENGTH);
  const cipher = createCipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_LENGTH });
  cipher.setAAD(Buffer.from(identity, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
  return `${SEALED_PREFIX}${nonce.toString('base64')}.${body.toString('base64')}`;
}

/**
 * Decrypts what {@link seal} produced, or returns `undefined` when the key is wrong or the value was altered, moved to
 * another identity or is not a sealed value at all (the caller decides which error that is).
 * @example
 * open(key, sealed, 'wallet-id/gen/secret-id'); // Uint8Array, or undefined
 */
export function open(key: Uint8Array, sealed: string, identity: string): Uint8Array | undefined {
  const parts = sealedParts(sealed);
  if (parts === undefined) return undefined;
  const { nonce, body } = parts;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_LENGTH });
    decipher.setAAD(Buffer.from(identity, 'utf8'));
    decipher.setAuthTag(body.subarray(body.length - TAG_LENGTH));
    const head = decipher.update(body.subarray(0, body.length - TAG_LENGTH));
    const tail = decipher.final();
    const plain = new Uint8Array(head.length + tail.length);
    plain.set(head);
    plain.set(tail, head.length);
    head.fill(0);
    tail.fill(0);
    return plain;
  } catch {
    return undefined;
  }
}

/** The nonce and the ciphertext with its tag of a value in {@link seal}'s form, or undefined for anything else. */
function sealedParts(sealed: string): { nonce: Buffer; body: Buffer } | undefined {
  if (typeof sealed !== 'string' || !sealed.startsWith(SEALED_PREFIX)) return undefined;
  const [nonceText, bodyText] = sealed.slice(SEALED_PREFIX.length).split('.');
  if (nonceText === undefined || bodyText === undefined) return undefined;
  const nonce = Buffer.from(nonceText, 'base64');
  const body = Buffer.from(bodyText, 'base64');
  return nonce.length === NONCE_LENGTH && body.length >= TAG_LENGTH ? { nonce, body } : undefined;
}

/**
 * Whether `value` has {@link seal}'s form (whatever key or identity sealed it): ciphertext, not text to protect.
 * @example
 * looksSealed(seal(key, bytes, 'id')); // true
 * looksSealed('{"keys": …}'); // false
 */
export function looksSealed(value: string): boolean {
  return sealedParts(value) !== undefined;
}

const CHECK_PLAINTEXT = new TextEncoder().encode('koinos-wallet password check');

/** A small value sealed under the key: opening it proves a password right without touching any secret. */
export function makeCheck(key: Uint8Array, identity: string): string {
  return seal(key, CHECK_PLAINTEXT, `check/${identity}`);
}

/** Whether `key` opens the check value made by {@link makeCheck} for `identity`. */
export function verifyCheck(key: Uint8Array, check: string, identity: string): boolean {
  const plain = open(key, check, `check/${identity}`);
  return plain !== undefined && plain.length === CHECK_PLAINTEXT.length && timingSafeEqual(plain, CHECK_PLAINTEXT);
}

/**
 * The scrypt cost that takes about {@link TARGET_UNLOCK_MS} here: one measured run at 2^14, scaled by powers of two,
 * kept within 2^15..2^20 so a slow or busy machine never makes a weak wallet.
 * @example
 * const cost = await calibrateScrypt(); // { N: 65536, r: 8, p: 1 } on a typical laptop
 */
export async function calibrateScrypt(targetMs = TARGET_UNLOCK_MS): Promise<ScryptCost> {
  const probeLogN = 14;
  const started = performance.now();
  zero(await deriveKey('calibration', { N: 2 ** probeLogN, r: 8, p: 1, salt: newSalt() }));
  const elapsed = Math.max(performance.now() - started, 1);
  const logN = Math.round(probeLogN + Math.log2(targetMs / elapsed));
  return { N: 2 ** Math.min(MAX_SCRYPT_LOG_N, Math.max(MIN_SCRYPT_LOG_N, logN)), r: 8, p: 1 };
}

/** Overwrites bytes with zeros (a decrypted secret or a key, when the vault locks). */
export function zero(bytes: Uint8Array | undefined): void {
  bytes?.fill(0);
}

/** The block size and parallelism of every scrypt run the wallet makes (and so the only ones it reads back). */
const SCRYPT_R = 8;
const SCRYPT_P = 1;

const logText = (n: number): string =>
  Number.isInteger(n) && n > 0 && (n & (n - 1)) === 0 ? `2^${Math.log2(n)}` : String(n);

/**
 * What is wrong with scrypt parameters read from a file (wallet.json, a backup), or undefined when they are ones this
 * wallet writes: r = 8, p = 1, N a power of two from `minN` (2^15 unless a test's cheap cost lowers it) to 2^20, and a
 * salt of at least 16 bytes. Checked before scrypt runs: a crafted file must not make it allocate gigabytes.
 * @example
 * scryptParamsProblem({ N: 2 ** 20, r: 32, p: 2, salt }); // 'expected scrypt with r=8, p=1 and N a power of two from 2^15 to 2^20, but found N=2^20 r=32 p=2'
 */
export function scryptParamsProblem(value: unknown, minN = 2 ** MIN_SCRYPT_LOG_N): string | undefined {
  if (!value || typeof value !== 'object') return 'no key derivation settings were found';
  const { N, r, p, salt } = value as Record<string, unknown>;
  const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
  const powerOfTwo = isNumber(N) && N > 0 && (N & (N - 1)) === 0;
  if (!(powerOfTwo && N >= minN && N <= 2 ** MAX_SCRYPT_LOG_N && r === SCRYPT_R && p === SCRYPT_P)) {
    const found = (v: unknown) => (typeof v === 'number' ? String(v) : typeof v);
    return `expected scrypt with r=${SCRYPT_R}, p=${SCRYPT_P} and N a power of two from ${logText(minN)} to 2^${MAX_SCRYPT_LOG_N}, but found N=${isNumber(N) ? logText(N) : found(N)} r=${found(r)} p=${found(p)}`;
  }
  if (typeof salt !== 'string' || Buffer.from(salt, 'base64').length < 16)
    return 'expected a scrypt salt of at least 16 bytes, but it is missing or shorter';
  return undefined;
}

/** Whether scrypt parameters read from a file are ones this wallet writes (see {@link scryptParamsProblem}). */
export function isScryptParams(value: unknown, minN = 2 ** MIN_SCRYPT_LOG_N): value is ScryptParams {
  return scryptParamsProblem(value, minN) === undefined;
}
