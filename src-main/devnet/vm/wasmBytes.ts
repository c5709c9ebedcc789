// The WebAssembly binary encoding the module check and the instrumentation share: a bounds-checked reader that
// knows its absolute offset (so errors name the byte), and a growable writer with LEB128.
import { ChainError, ERROR_CODE } from '../state/chainError.ts';

/** What fizzy reports for a module it cannot parse; every module error of the devnet starts with it. */
const MODULE_PARSE_ERROR = 'could not parse fizzy module - FizzyErrorMalformedModule';

/**
 * The reversion the chain raises for a module it cannot parse (fizzy's `module_parse_exception` derives from
 * `reversion_exception`): `what` is the cause, `offset` the byte of the module where it was found.
 */
export function moduleError(what: string, offset: number, keys: Record<string, unknown> = {}): ChainError {
  return new ChainError(ERROR_CODE.reversion, `${MODULE_PARSE_ERROR}: ${what} at byte ${offset}`, { ...keys, offset });
}

/** A cursor over module bytes; `pos` is absolute in the module so that errors can name the byte. */
export class WasmReader {
  readonly bytes: Uint8Array;
  pos: number;
  readonly end: number;

  constructor(bytes: Uint8Array, pos = 0, end = bytes.length) {
    this.bytes = bytes;
    this.pos = pos;
    this.end = end;
  }

  get done(): boolean {
    return this.pos >= this.end;
  }

  private need(n: number): void {
    if (this.pos + n > this.end) throw moduleError('unexpected end of section or module', this.pos);
  }

  byte(): number {
    this.need(1);
    return this.bytes[this.pos++]!;
  }

  skip(n: number): void {
    this.need(n);
    this.pos += n;
  }

  take(n: number): Uint8Array {
    this.need(n);
    const out = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  /** An unsigned LEB128 of at most 32 bits. */
  u32(): number {
    const start = this.pos;
    let result = 0;
    let shift = 0;
    for (;;) {
      const b = this.byte();
      if (shift === 28 && (b & 0x70) !== 0) throw moduleError('unsigned LEB128 out of 32-bit range', start);
      result += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return result;
      shift += 7;
      if (shift > 28) throw moduleError('unsigned LEB128 longer than 5 bytes', start);
    }
  }

  /** Skips a signed LEB128 of at most `bits` bits (i32.const, i64.const, block types). */
  skipSigned(bits: 32 | 33 | 64): void {
    const start = this.pos;
    const maxBytes = Math.ceil(bits / 7);
    for (let i = 0; i < maxBytes; i++) {
      if ((this.byte() & 0x80) === 0) return;
    }
    throw moduleError(`signed LEB128 longer than ${maxBytes} bytes`, start);
  }

  /** A signed LEB128 of at most 33 bits as a number (block types). */
  s33(): number {
    const start = this.pos;
    let result = 0;
    let shift = 0;
    let b: number;
    do {
      b = this.byte();
      result += (b & 0x7f) * 2 ** shift;
      shift += 7;
      if (shift > 35) throw moduleError('signed LEB128 longer than 5 bytes', start);
    } while (b & 0x80);
    if (b & 0x40) result -= 2 ** shift;
    return result;
  }

  name(): string {
    const len = this.u32();
    const start = this.pos;
    const raw = this.take(len);
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(raw);
    } catch {
      throw moduleError('name is not valid UTF-8', start);
    }
  }
}

/** A growable byte buffer for the rewritten module. */
export class WasmWriter {
  private buf = new Uint8Array(1024);
  length = 0;

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }

  byte(b: number): this {
    this.room(1);
    this.buf[this.length++] = b;
    return this;
  }

  bytes(b: Uint8Array): this {
    this.room(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
    return this;
  }

  u32(value: number): this {
    let v = value >>> 0;
    do {
      let b = v & 0x7f;
      v >>>= 7;
      if (v !== 0) b |= 0x80;
      this.byte(b);
    } while (v !== 0);
    return this;
  }

  /** A signed LEB128 of a 64-bit value. */
  s64(value: bigint): this {
    let v = BigInt.asIntN(64, value);
    for (;;) {
      const b = Number(v & 0x7fn);
      v >>= 7n;
      const signBit = (b & 0x40) !== 0;
      if ((v === 0n && !signBit) || (v === -1n && signBit)) {
        this.byte(b);
        return this;
      }
      this.byte(b | 0x80);
    }
  }

  s32(value: number): this {
    return this.s64(BigInt(value | 0));
  }

  name(text: string): this {
    const raw = new TextEncoder().encode(text);
    return this.u32(raw.length).bytes(raw);
  }

  /** A section: id, then its payload with its length. */
  section(id: number, payload: Uint8Array): this {
    return this.byte(id).u32(payload.length).bytes(payload);
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}
