// Canonical protobuf binary and gateway-style JSON for every message in proto/, driven by the descriptors.
// protobufjs parses proto/ into the generated descriptor (proto/compile.mjs), read here as it is, and reflects a
// contract ABI's types; the byte layout is written here so that canonical order, omitted defaults and 64-bit
// integers as bigint are enforced rather than assumed.
import protobuf from 'protobufjs';
import { DESCRIPTOR } from './generated/descriptor.ts';
import type { MessageMap } from './generated/messages.ts';
import { MAX_ADDRESS_TEXT_LENGTH, addressFromString } from './address.ts';
import { fromBase58, fromBase64, fromHex, toBase58, toBase64Url, toHex, utf8ToBytes } from './bytes.ts';
import { closestName } from './closestName.ts';
import { WalletError, describe } from './errors.ts';

/** Values of the `btype` field option (koinos/options.proto). */
export const BTYPE = {
  BASE64: 0,
  BASE58: 1,
  HEX: 2,
  BLOCK_ID: 3,
  TRANSACTION_ID: 4,
  CONTRACT_ID: 5,
  ADDRESS: 6,
} as const;
export type Btype = (typeof BTYPE)[keyof typeof BTYPE];

/** A decoded message of a type only known at run time: snake_case keys, bigint for 64-bit integers, Uint8Array for bytes. */
export type ProtoMessage = { [field: string]: unknown };

/** The full name of a message type of proto/ (`koinos.protocol.transaction`): {@link MessageMap}'s keys. */
export type MessageType = keyof MessageMap;

export type { MessageMap };

/**
 * What `encode` and `toJson` accept for a message of shape `T` (a {@link MessageMap} entry): any field may be left out
 * (it is then the default, or absent), nested messages likewise, arrays may be read-only. A decoded message fits.
 */
export type MessageInput<T> = { [F in keyof T]?: FieldInput<T[F]> };
type FieldInput<V> = V extends Uint8Array
  ? V
  : V extends readonly (infer E)[]
    ? readonly FieldInput<E>[]
    : V extends object
      ? MessageInput<V>
      : V;

/**
 * A type name that is not one of proto/'s at compile time (an ABI's, or a name read from a table): any `string` except
 * the literal names of {@link MessageMap}, which take the typed overloads (so a wrong value for them does not compile).
 */
type RuntimeName<S extends string> = S & (S extends MessageType ? never : unknown);
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

type Kind =
  | 'double'
  | 'float'
  | 'int32'
  | 'uint32'
  | 'sint32'
  | 'fixed32'
  | 'sfixed32'
  | 'int64'
  | 'uint64'
  | 'sint64'
  | 'fixed64'
  | 'sfixed64'
  | 'bool'
  | 'string'
  | 'bytes'
  | 'enum'
  | 'message';

interface FieldPlan {
  name: string;
  jsonName: string;
  id: number;
  kind: Kind;
  repeated: boolean;
  packed: boolean;
  /** Emitted even when equal to the default: proto3 `optional` fields and oneof members. */
  presence: boolean;
  oneof?: string;
  btype: Btype;
  wireType: number;
  typeName?: string;
  /** The plan of a message field's type, resolved on first use (types may refer to each other). */
  sub?: MessagePlan;
  /** The schema the field's type names resolve in. */
  schema: Schema;
  enumValues?: Record<string, number>;
  enumNames?: Map<number, string>;
}

interface MessagePlan {
  name: string;
  /** Ascending field number: the canonical order. */
  fields: FieldPlan[];
  /** The fields a decoded message always has, in canonical order, and what each starts as (see emptyMessage). */
  defaults: FieldDefault[];
  byId: Map<number, FieldPlan>;
  byJsonKey: Map<string, FieldPlan>;
  oneofs: Map<string, FieldPlan[]>;
}

/**
 * What a field of a decoded message starts as: a new empty array (repeated), new empty bytes, or an immutable value
 * (0, 0n, false, ''). Fields that start absent (messages, oneof members, `optional` fields) have none.
 */
type FieldDefault = { name: string; fresh: 'array' | 'bytes' } | { name: string; fresh: undefined; value: unknown };

const WIRE: Record<Kind, number> = {
  double: 1,
  float: 5,
  int32: 0,
  uint32: 0,
  sint32: 0,
  fixed32: 5,
  sfixed32: 5,
  int64: 0,
  uint64: 0,
  sint64: 0,
  fixed64: 1,
  sfixed64: 1,
  bool: 0,
  string: 2,
  bytes: 2,
  enum: 0,
  message: 2,
};
const IS_64 = new Set<Kind>(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);
const PACKABLE = new Set<Kind>([
  'double',
  'float',
  'int32',
  'uint32',
  'sint32',
  'fixed32',
  'sfixed32',
  'int64',
  'uint64',
  'sint64',
  'fixed64',
  'sfixed64',
  'bool',
  'enum',
]);
const BTYPE_NAMES: Record<string, Btype> = BTYPE;

/** A field as the planner reads it, from either source of types (see {@link Schema}). */
interface FieldShape {
  name: string;
  id: number;
  repeated: boolean;
  /** The type as written: a scalar's name, or the message or enum type's name. */
  type: string;
  /** The full name of the message type it resolves to. */
  message?: string;
  /** The values of the enum type it resolves to. */
  enumValues?: Record<string, number>;
  options: Record<string, unknown>;
  /** The oneof it is a member of (a proto3 `optional` field's synthetic one included). */
  oneof?: string;
}

/** A message type as the planner reads it: its full name and its fields. */
interface MessageShape {
  fullName: string;
  fields: FieldShape[];
}

/**
 * A set of protobuf types and the plans made from them: proto/ (read straight from the generated descriptor), or a
 * contract ABI's types (protobufjs reflection, whose lookup rules koilib applies to the same ABIs).
 */
interface Schema {
  /** The message type called `name` (a full name, with or without the leading dot), or undefined. */
  shapeOf(name: string): MessageShape | undefined;
  plans: Map<string, MessagePlan>;
  /** Where the types come from, for error messages ("proto/", "the contract's ABI"). */
  origin: string;
}

/** The names of protobuf's scalar types, as a field's `type` gives them. */
export const SCALAR_TYPES: ReadonlySet<string> = new Set(
  Object.keys(WIRE).filter((kind) => kind !== 'enum' && kind !== 'message'),
);

/** A namespace, message or enum of the generated descriptor (protobufjs's JSON form; messages have `fields`). */
interface DescriptorItem {
  nested?: Record<string, DescriptorItem>;
  fields?: Record<string, { type: string; id: number; rule?: string; options?: Record<string, unknown> }>;
  oneofs?: Record<string, { oneof: string[] }>;
  values?: Record<string, number>;
}

/**
 * The schema of proto/, read from the generated descriptor without building protobufjs's reflection of it (28–42 ms of
 * CPU in every new process and thread: a CLI command, a devnet thread). Every message and enum is indexed by its full
 * name, and a field's type name is looked up in the message's own scope first, then in each enclosing one (a test
 * checks every field of proto/ against protobufjs's resolution).
 */
function descriptorSchema(namespace: DescriptorItem): Schema {
  const types = new Map<string, DescriptorItem>();
  const index = (ns: DescriptorItem, prefix: string): void => {
    for (const [name, item] of Object.entries(ns.nested ?? {})) {
      const full = prefix === '' ? name : `${prefix}.${name}`;
      if (item.fields || item.values) types.set(full, item);
      index(item, full);
    }
  };
  index(namespace, '');
  const resolve = (name: string, scope: string): [string, DescriptorItem] | undefined => {
    if (name.startsWith('.')) {
      const found = types.get(name.slice(1));
      return found && [name.slice(1), found];
    }
    // The message's own scope first (its nested types), then each enclosing scope up to the root.
    for (let at = scope; ;) {
      const full = at === '' ? name : `${at}.${name}`;
      const found = types.get(full);
      if (found) return [full, found];
      if (at === '') return undefined;
      const dot = at.lastIndexOf('.');
      at = dot < 0 ? '' : at.slice(0, dot);
    }
  };
  return {
    origin: 'proto/',
    plans: new Map(),
    shapeOf(name) {
      const fullName = name.startsWith('.') ? name.slice(1) : name;
      const type = types.get(fullName);
      if (!type?.fields) return undefined;
      const oneofOf = new Map<string, string>();
      for (const [oneof, { oneof: members }] of Object.entries(type.oneofs ?? {}))
        for (const member of members) oneofOf.set(member, oneof);
      const fields = Object.entries(type.fields).map(([fieldName, field]): FieldShape => {
        const shape: FieldShape = {
          name: fieldName,
          id: field.id,
          repeated: field.rule === 'repeated',
          type: field.type,
          options: field.options ?? {},
          oneof: oneofOf.get(fieldName),
        };
        if (SCALAR_TYPES.has(field.type)) return shape;
        const resolved = resolve(field.type, fullName);
        if (!resolved) {
          throw new WalletError('INTERNAL', `${fullName}.${fieldName}: no type ${field.type} in proto/`);
        }
        const [typeName, item] = resolved;
        if (item.values) shape.enumValues = item.values;
        else shape.message = typeName;
        return shape;
      });
      return { fullName, fields };
    },
  };
}

const BUILTIN = descriptorSchema(DESCRIPTOR as DescriptorItem);

/** The schema of a protobufjs namespace (a contract ABI's types), through protobufjs's reflection and lookup. */
function reflectedSchema(root: protobuf.Root, origin: string): Schema {
  return {
    origin,
    plans: new Map(),
    shapeOf(name) {
      let found: protobuf.ReflectionObject | null = null;
      try {
        found = root.lookup(name.startsWith('.') ? name.slice(1) : name);
      } catch {
        // a malformed name finds nothing
      }
      if (!(found instanceof protobuf.Type)) return undefined;
      return {
        fullName: found.fullName.slice(1),
        fields: found.fieldsArray.map((field) => {
          field.resolve();
          const resolved = field.resolvedType;
          return {
            name: field.name,
            id: field.id,
            repeated: field.repeated,
            type: field.type,
            message: resolved instanceof protobuf.Type ? resolved.fullName.slice(1) : undefined,
            enumValues: resolved instanceof protobuf.Enum ? resolved.values : undefined,
            options: (field.options ?? {}) as Record<string, unknown>,
            oneof: field.partOf?.name,
          };
        }),
      };
    },
  };
}

function lookupType(name: string, schema: Schema): MessageShape {
  const shape = schema.shapeOf(name);
  if (!shape) {
    throw new WalletError(
      'UNKNOWN_TYPE',
      `expected the name of a protobuf message in ${schema.origin}, got ${describe(name)}`,
    );
  }
  return shape;
}

/** The plan of a message-typed field. */
function subPlan(f: FieldPlan): MessagePlan {
  return (f.sub ??= planOf(f.typeName as string, f.schema));
}

function planOf(name: string, schema: Schema = BUILTIN): MessagePlan {
  const plans = schema.plans;
  const cached = plans.get(name);
  if (cached) return cached;
  const type = lookupType(name, schema);
  const plan: MessagePlan = {
    name: type.fullName,
    fields: [],
    defaults: [],
    byId: new Map(),
    byJsonKey: new Map(),
    oneofs: new Map(),
  };
  plans.set(name, plan);
  for (const field of [...type.fields].sort((a, b) => a.id - b.id)) {
    const options = field.options;
    const kind: Kind = field.enumValues ? 'enum' : field.message !== undefined ? 'message' : (field.type as Kind);
    if (!(kind in WIRE))
      throw new WalletError('INTERNAL', `unsupported protobuf type ${field.type} in ${plan.name}.${field.name}`);
    const realOneof = field.oneof !== undefined && !options.proto3_optional ? field.oneof : undefined;
    // koilib reads both spellings of the option: `(koinos.btype)` (koinos-proto) and `(btype)` (contract protos).
    const btypeOption = options['(koinos.btype)'] ?? options['(btype)'];
    const f: FieldPlan = {
      name: field.name,
      jsonName: field.name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()),
      id: field.id,
      kind,
      repeated: field.repeated,
      packed: field.repeated && PACKABLE.has(kind),
      presence: Boolean(options.proto3_optional) || realOneof !== undefined,
      oneof: realOneof,
      btype: typeof btypeOption === 'string' ? (BTYPE_NAMES[btypeOption] ?? BTYPE.BASE64) : BTYPE.BASE64,
      wireType: WIRE[kind],
      typeName: field.message,
      schema,
    };
    if (field.enumValues) {
      f.enumValues = field.enumValues;
      f.enumNames = new Map(Object.entries(field.enumValues).map(([k, v]) => [v, k]));
    }
    plan.fields.push(f);
    const start = defaultOf(f);
    if (start) plan.defaults.push(start);
    plan.byId.set(f.id, f);
    plan.byJsonKey.set(f.name, f);
    plan.byJsonKey.set(f.jsonName, f);
    if (f.oneof) plan.oneofs.set(f.oneof, [...(plan.oneofs.get(f.oneof) ?? []), f]);
  }
  return plan;
}

/** True when `name` is a message type of proto/ (for example `koinos.protocol.transaction`). */
export function hasType(name: string): boolean {
  try {
    lookupType(name, BUILTIN);
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Binary writer

class Writer {
  buf = new Uint8Array(256);
  pos = 0;

  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
  }

  varint(n: number): void {
    // n is a non-negative integer below 2^53.
    this.ensure(10);
    while (n > 0x7f) {
      this.buf[this.pos++] = (n % 128) | 0x80;
      n = Math.floor(n / 128);
    }
    this.buf[this.pos++] = n;
  }

  varint64(n: bigint): void {
    // n is in [0, 2^64): callers convert signed values first.
    if (n < 0x20000000000000n) return this.varint(Number(n));
    this.ensure(10);
    while (n > 0x7fn) {
      this.buf[this.pos++] = Number(n & 0x7fn) | 0x80;
      n >>= 7n;
    }
    this.buf[this.pos++] = Number(n);
  }

  fixed32(n: number): void {
    this.ensure(4);
    new DataView(this.buf.buffer).setUint32(this.pos, n >>> 0, true);
    this.pos += 4;
  }

  fixed64(n: bigint): void {
    this.ensure(8);
    new DataView(this.buf.buffer).setBigUint64(this.pos, BigInt.asUintN(64, n), true);
    this.pos += 8;
  }

  float(n: number, double: boolean): void {
    this.ensure(8);
    const view = new DataView(this.buf.buffer);
    if (double) view.setFloat64(this.pos, n, true);
    else view.setFloat32(this.pos, n, true);
    this.pos += double ? 8 : 4;
  }

  bytes(b: Uint8Array): void {
    this.varint(b.length);
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  /** Starts a length-delimited body: returns where its length goes, for closeDelimited once the body is written. */
  openDelimited(): number {
    this.ensure(1);
    return this.pos++;
  }

  /** Ends the body opened at `lenPos`: writes its length there, moving the body when the length takes more bytes. */
  closeDelimited(lenPos: number): void {
    const len = this.pos - lenPos - 1;
    if (len < 0x80) {
      this.buf[lenPos] = len;
      return;
    }
    let size = 1;
    for (let v = len; v > 0x7f; v = Math.floor(v / 128)) size++;
    this.ensure(size - 1);
    this.buf.copyWithin(lenPos + size, lenPos + 1, this.pos);
    const end = this.pos + size - 1;
    this.pos = lenPos;
    this.varint(len);
    this.pos = end;
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.pos);
  }
}

// ---------------------------------------------------------------------------------------------
// Value checks shared by the encoder and the JSON parser

const RANGES: Partial<Record<Kind, [bigint, bigint]>> = {
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  sint32: [-(2n ** 31n), 2n ** 31n - 1n],
  sfixed32: [-(2n ** 31n), 2n ** 31n - 1n],
  uint32: [0n, 2n ** 32n - 1n],
  fixed32: [0n, 2n ** 32n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  sint64: [-(2n ** 63n), 2n ** 63n - 1n],
  sfixed64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
  fixed64: [0n, 2n ** 64n - 1n],
};

function kindLabel(kind: Kind): string {
  if (kind === 'uint64' || kind === 'fixed64') return 'an unsigned 64-bit integer';
  if (IS_64.has(kind)) return 'a signed 64-bit integer';
  if (kind === 'uint32' || kind === 'fixed32') return 'an unsigned 32-bit integer';
  return 'a 32-bit integer';
}

/** What was wrong with a value: "expected …, got …", for after the path of where it was found. */
function expectation(expected: string, got: unknown): string {
  return `expected ${expected}, got ${describe(got)}`;
}

function fail(path: string, expected: string, got: unknown, code: 'INVALID_JSON' | 'INVALID_ARGUMENT'): never {
  throw new WalletError(code, `${path}: ${expectation(expected, got)}`);
}

/**
 * The longest decimal text an integer field accepts: a sign and 20 digits (2^64 - 1 has 20). Longer text is refused
 * before BigInt() reads it, whose cost grows with the square of the length.
 */
const MAX_INTEGER_TEXT = 21;

/**
 * Accepts bigint, a safe integer number or a decimal string; returns a bigint in the kind's range, or what was wrong
 * ("expected …, got …") for the caller to put after the field's path.
 */
function toInteger(kind: Kind, value: unknown): bigint | string {
  let n: bigint;
  if (typeof value === 'bigint') n = value;
  else if (typeof value === 'number' && Number.isSafeInteger(value)) n = BigInt(value);
  else if (typeof value === 'string' && value.length > MAX_INTEGER_TEXT && /^-?\d+$/.test(value)) {
    return `expected ${kindLabel(kind)} of at most 20 digits, got ${value.length} characters`;
  } else if (typeof value === 'string' && /^-?\d+$/.test(value)) n = BigInt(value);
  else return expectation(`${kindLabel(kind)}${IS_64.has(kind) ? ' as a decimal string' : ''}`, value);
  const range = RANGES[kind]!;
  if (n < range[0] || n > range[1]) return expectation(`${kindLabel(kind)} between ${range[0]} and ${range[1]}`, value);
  return n;
}

function isDefault(f: FieldPlan, v: unknown): boolean {
  switch (f.kind) {
    case 'message':
      return false;
    case 'bool':
      return v === false;
    case 'string':
      return v === '';
    case 'bytes':
      return (v as Uint8Array).length === 0;
    default:
      return v === 0 || v === 0n || v === '0';
  }
}

// ---------------------------------------------------------------------------------------------
// Encode

/**
 * The path of field `f` of the message at `path`, item `index` of it when given. Built only for an error message: an
 * encoding writes hundreds of fields, and a path made for each was a fifth of what a devnet transfer allocated.
 */
function fieldPath(path: string, f: FieldPlan, index?: number): string {
  return index === undefined ? `${path}.${f.name}` : `${path}.${f.name}[${index}]`;
}

/** Writes scalar `v` of field `f` (item `index` when repeated) of the message at `path`. */
function writeScalar(w: Writer, f: FieldPlan, v: unknown, path: string, index?: number): void {
  const code = 'INVALID_ARGUMENT';
  switch (f.kind) {
    case 'bool':
      if (typeof v !== 'boolean') fail(fieldPath(path, f, index), 'a boolean', v, code);
      w.varint(v ? 1 : 0);
      return;
    case 'string':
      if (typeof v !== 'string') fail(fieldPath(path, f, index), 'a string', v, code);
      w.bytes(utf8ToBytes(v));
      return;
    case 'bytes':
      if (!(v instanceof Uint8Array)) fail(fieldPath(path, f, index), 'bytes (a Uint8Array)', v, code);
      w.bytes(v);
      return;
    case 'double':
    case 'float':
      if (typeof v !== 'number') fail(fieldPath(path, f, index), 'a number', v, code);
      w.float(v, f.kind === 'double');
      return;
    case 'enum': {
      const n = typeof v === 'string' ? f.enumValues![v] : v;
      if (typeof n !== 'number' || !Number.isInteger(n)) {
        fail(fieldPath(path, f, index), `one of ${Object.keys(f.enumValues!).join(', ')}`, v, code);
      }
      w.varint64(BigInt.asUintN(64, BigInt(n)));
      return;
    }
    default: {
      const n = toInteger(f.kind, v);
      if (typeof n === 'string') throw new WalletError(code, `${fieldPath(path, f, index)}: ${n}`);
      switch (f.kind) {
        case 'int32':
        case 'int64':
          w.varint64(BigInt.asUintN(64, n));
          return;
        case 'uint32':
        case 'uint64':
          w.varint64(n);
          return;
        case 'sint32':
        case 'sint64':
          w.varint64(n >= 0n ? n << 1n : (-n << 1n) - 1n);
          return;
        case 'fixed32':
        case 'sfixed32':
          w.fixed32(Number(BigInt.asUintN(32, n)));
          return;
        default:
          w.fixed64(n);
      }
    }
  }
}

function writeMessage(w: Writer, plan: MessagePlan, value: unknown, path: string): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Uint8Array) {
    fail(path, `a ${plan.name} message object`, value, 'INVALID_ARGUMENT');
  }
  const obj = value as ProtoMessage;
  for (const members of plan.oneofs.values()) {
    let count = 0;
    for (const m of members) if (obj[m.name] !== undefined && obj[m.name] !== null) count++;
    if (count > 1) {
      const set = members.filter((m) => obj[m.name] !== undefined && obj[m.name] !== null);
      throw new WalletError(
        'INVALID_ARGUMENT',
        `${path}: expected one member of oneof ${members[0]!.oneof}, got ${set.map((m) => m.name).join(' and ')}`,
      );
    }
  }
  for (const f of plan.fields) {
    const v = obj[f.name];
    if (v === undefined || v === null) continue;
    if (f.repeated) {
      if (!Array.isArray(v)) fail(fieldPath(path, f), 'an array', v, 'INVALID_ARGUMENT');
      if (v.length === 0) continue;
      if (f.packed) {
        w.varint((f.id << 3) | 2);
        const lenPos = w.openDelimited();
        for (let i = 0; i < v.length; i++) writeScalar(w, f, v[i], path, i);
        w.closeDelimited(lenPos);
        continue;
      }
      for (let i = 0; i < v.length; i++) writeField(w, f, v[i], path, i);
      continue;
    }
    if (!f.presence && isDefault(f, v)) continue;
    writeField(w, f, v, path);
  }
}

/** Writes field `f` (item `index` when repeated) of the message at `path`, its tag and then its value. */
function writeField(w: Writer, f: FieldPlan, v: unknown, path: string, index?: number): void {
  w.varint((f.id << 3) | f.wireType);
  if (f.kind === 'message') {
    const lenPos = w.openDelimited();
    writeMessage(w, subPlan(f), v, fieldPath(path, f, index));
    w.closeDelimited(lenPos);
  } else {
    writeScalar(w, f, v, path, index);
  }
}

/**
 * Canonical protobuf bytes of a message: fields in ascending number order, defaults omitted (also when set
 * explicitly), minimal varints, unknown keys of `value` ignored. Oneof members and `optional` fields that are
 * set are written even when zero, as protobuf requires.
 * @throws WalletError UNKNOWN_TYPE for a name not in proto/; INVALID_ARGUMENT naming the field for a wrong value.
 * @example
 * encode('koinos.chain.value_type', { uint64_value: 1n }) // Uint8Array [0x28, 0x01]
 */
export function encode<K extends MessageType>(type: K, value: MessageMap[K] | MessageInput<MessageMap[K]>): Uint8Array;
export function encode<S extends string>(type: RuntimeName<S>, value: object): Uint8Array;
export function encode(type: string, value: object): Uint8Array {
  return encodeWith(BUILTIN, type, value);
}

function encodeWith(schema: Schema, type: string, value: object): Uint8Array {
  const plan = planOf(type, schema);
  // One scratch buffer for every call (encoding never re-enters itself); finish() copies the bytes out.
  const w = SCRATCH;
  w.pos = 0;
  try {
    writeMessage(w, plan, value, plan.name);
    return w.finish();
  } finally {
    if (w.buf.length > SCRATCH_KEEP) w.buf = new Uint8Array(256); // do not hold on to one huge message's buffer
  }
}

const SCRATCH = new Writer();
const SCRATCH_KEEP = 1 << 20;

// ---------------------------------------------------------------------------------------------
// Decode

const UTF8 = new TextDecoder();

class Reader {
  pos = 0;
  constructor(
    readonly buf: Uint8Array,
    readonly type: string,
  ) {}

  truncated(): never {
    throw new WalletError(
      'INVALID_PROTOBUF',
      `expected a complete ${this.type} message, got bytes that end in the middle of a field`,
    );
  }

  /** Varint as a number when below 2^49, else as a bigint. */
  varint(): number | bigint {
    let result = 0;
    let scale = 1;
    for (let i = 0; i < 7; i++) {
      if (this.pos >= this.buf.length) this.truncated();
      const b = this.buf[this.pos++]!;
      result += (b & 0x7f) * scale;
      if (b < 0x80) return result;
      scale *= 128;
    }
    let big = BigInt(result);
    let shift = 49n;
    for (let i = 7; i < 10; i++) {
      if (this.pos >= this.buf.length) this.truncated();
      const b = this.buf[this.pos++]!;
      big |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return BigInt.asUintN(64, big);
      shift += 7n;
    }
    throw new WalletError(
      'INVALID_PROTOBUF',
      `expected a varint of at most 10 bytes in ${this.type}, got a longer one`,
    );
  }

  varintBig(): bigint {
    const v = this.varint();
    return typeof v === 'bigint' ? v : BigInt(v);
  }

  length(): number {
    const n = this.varint();
    if (typeof n === 'bigint' || this.pos + n > this.buf.length) this.truncated();
    return n;
  }

  take(n: number): Uint8Array {
    if (this.pos + n > this.buf.length) this.truncated();
    const out = this.buf.slice(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  skip(wireType: number): void {
    switch (wireType) {
      case 0:
        this.varint();
        return;
      case 1:
        this.take(8);
        return;
      case 2:
        this.take(this.length());
        return;
      case 5:
        this.take(4);
        return;
      default:
        throw new WalletError(
          'INVALID_PROTOBUF',
          `expected a known protobuf wire type in ${this.type}, got ${wireType}`,
        );
    }
  }
}

/** What field `f` of a decoded message starts as, or undefined when it starts absent. */
function defaultOf(f: FieldPlan): FieldDefault | undefined {
  const name = f.name;
  if (f.repeated) return { name, fresh: 'array' };
  if (f.presence || f.kind === 'message') return undefined;
  switch (f.kind) {
    case 'bool':
      return { name, fresh: undefined, value: false };
    case 'string':
      return { name, fresh: undefined, value: '' };
    case 'bytes':
      return { name, fresh: 'bytes' };
    default:
      return { name, fresh: undefined, value: IS_64.has(f.kind) ? 0n : 0 };
  }
}

/**
 * Where a bytes field of a message being read stays until it is read (see emptyMessage); never in a returned message.
 */
const UNREAD_BYTES = new Uint8Array(0);

/**
 * A message with every field at its default (its plan's `defaults`), arrays new for each message. A bytes field holds
 * UNREAD_BYTES until the reader sets it: `finishMessage` gives those left unread bytes of their own, so that a read
 * does not make empty bytes for every field it then reads (an array buffer each).
 */
function emptyMessage(plan: MessagePlan): ProtoMessage {
  const obj: ProtoMessage = {};
  for (const d of plan.defaults)
    obj[d.name] = d.fresh === undefined ? d.value : d.fresh === 'array' ? [] : UNREAD_BYTES;
  return obj;
}

/** Gives each bytes field of `obj` (made by emptyMessage) that was not read empty bytes of its own. */
function finishMessage(plan: MessagePlan, obj: ProtoMessage): ProtoMessage {
  for (const d of plan.defaults) if (obj[d.name] === UNREAD_BYTES) obj[d.name] = new Uint8Array(0);
  return obj;
}

function readScalar(r: Reader, f: FieldPlan): unknown {
  switch (f.kind) {
    case 'bool':
      return r.varintBig() !== 0n;
    case 'string':
      return UTF8.decode(r.take(r.length()));
    case 'bytes':
      return r.take(r.length());
    case 'double':
      return new DataView(r.take(8).buffer).getFloat64(0, true);
    case 'float':
      return new DataView(r.take(4).buffer).getFloat32(0, true);
    case 'fixed32':
      return new DataView(r.take(4).buffer).getUint32(0, true);
    case 'sfixed32':
      return new DataView(r.take(4).buffer).getInt32(0, true);
    case 'fixed64':
      return new DataView(r.take(8).buffer).getBigUint64(0, true);
    case 'sfixed64':
      return new DataView(r.take(8).buffer).getBigInt64(0, true);
    case 'uint64':
      return r.varintBig();
    case 'int64':
      return BigInt.asIntN(64, r.varintBig());
    case 'sint64': {
      const n = r.varintBig();
      return n & 1n ? -((n + 1n) >> 1n) : n >> 1n;
    }
    case 'uint32': {
      const n = r.varint();
      return typeof n === 'number' && n < 2 ** 32 ? n : Number(BigInt.asUintN(32, BigInt(n)));
    }
    case 'sint32': {
      const n = Number(BigInt.asUintN(32, r.varintBig()));
      return n % 2 === 1 ? -(n + 1) / 2 : n / 2;
    }
    default:
      // int32 and enum: negative values arrive sign-extended to 64 bits.
      return Number(BigInt.asIntN(32, r.varintBig()));
  }
}

/** Deepest nesting of messages the decoder reads (protobuf's own default recursion limit). */
const MAX_NESTING = 100;

function readMessage(r: Reader, plan: MessagePlan, end: number, depth = 0): ProtoMessage {
  if (depth > MAX_NESTING) {
    throw new WalletError(
      'INVALID_PROTOBUF',
      `expected messages nested at most ${MAX_NESTING} deep in ${r.type}, got deeper`,
    );
  }
  const obj = emptyMessage(plan);
  while (r.pos < end) {
    const tag = r.varint();
    if (typeof tag === 'bigint' || tag === 0) {
      throw new WalletError('INVALID_PROTOBUF', `expected a field tag in ${plan.name}, got ${String(tag)}`);
    }
    const id = Math.floor(tag / 8);
    const wireType = tag % 8;
    const f = plan.byId.get(id);
    if (!f) {
      r.skip(wireType); // unknown field: newer writers may add fields, older readers skip them
      continue;
    }
    if (f.packed && wireType === 2) {
      const length = r.length(); // read first: the items start after the length's own bytes
      const stop = r.pos + length;
      const list = obj[f.name] as unknown[];
      while (r.pos < stop) list.push(readScalar(r, f));
      if (r.pos !== stop) r.truncated();
      continue;
    }
    if (wireType !== f.wireType) {
      throw new WalletError(
        'INVALID_PROTOBUF',
        `${plan.name}.${f.name}: expected wire type ${f.wireType}, got ${wireType}`,
      );
    }
    let value: unknown;
    if (f.kind === 'message') {
      const len = r.length();
      value = readMessage(r, subPlan(f), r.pos + len, depth + 1);
    } else {
      value = readScalar(r, f);
    }
    if (f.repeated) {
      (obj[f.name] as unknown[]).push(value);
    } else {
      if (f.oneof) for (const m of plan.oneofs.get(f.oneof)!) delete obj[m.name];
      obj[f.name] = value;
    }
  }
  if (r.pos !== end) r.truncated();
  return finishMessage(plan, obj);
}

/**
 * Decodes protobuf bytes. Fields may come in any order; unknown fields are skipped. Absent scalars get their
 * default (0, 0n, false, '', empty bytes, []); absent messages, oneof members and `optional` fields stay undefined.
 * @throws WalletError INVALID_PROTOBUF on truncated or malformed bytes.
 * @example
 * decode('koinos.chain.value_type', new Uint8Array([0x28, 0x01])) // { uint64_value: 1n }
 */
export function decode<K extends MessageType>(type: K, bytes: Uint8Array): MessageMap[K];
export function decode<S extends string>(type: RuntimeName<S>, bytes: Uint8Array): ProtoMessage;
export function decode(type: string, bytes: Uint8Array): ProtoMessage {
  return decodeWith<ProtoMessage>(BUILTIN, type, bytes);
}

/**
 * The length-delimited fields of protobuf bytes (submessages, bytes, strings) in the order they come, as views into
 * `bytes`, without decoding them: a submessage's canonical bytes inside its parent are the ones it encodes to alone.
 * Fields of other wire types are skipped. `type` names the message in errors only.
 * @throws WalletError INVALID_PROTOBUF on truncated or malformed bytes.
 * @example
 * lengthDelimitedFields('koinos.protocol.transaction', txBytes).filter((f) => f.field === 3) // the operations
 */
export function lengthDelimitedFields(type: string, bytes: Uint8Array): { field: number; bytes: Uint8Array }[] {
  const r = new Reader(bytes, type);
  const out: { field: number; bytes: Uint8Array }[] = [];
  while (r.pos < bytes.length) {
    const key = Number(r.varint());
    if ((key & 7) !== 2) {
      r.skip(key & 7);
      continue;
    }
    const length = r.length();
    out.push({ field: Math.floor(key / 8), bytes: bytes.subarray(r.pos, r.pos + length) });
    r.pos += length;
  }
  return out;
}

function decodeWith<T>(schema: Schema, type: string, bytes: Uint8Array): T {
  const plan = planOf(type, schema);
  if (!(bytes instanceof Uint8Array)) fail(plan.name, 'protobuf bytes (a Uint8Array)', bytes, 'INVALID_ARGUMENT');
  const r = new Reader(bytes, plan.name);
  return readMessage(r, plan, bytes.length) as T;
}

// ---------------------------------------------------------------------------------------------
// JSON (the gateway's protojson: proto names, defaults omitted, 64-bit as strings, bytes by btype)

/** Renders bytes the way the gateway does for a field of this btype. */
export function bytesToJson(bytes: Uint8Array, btype: Btype): string {
  switch (btype) {
    case BTYPE.HEX:
    case BTYPE.BLOCK_ID:
    case BTYPE.TRANSACTION_ID:
      return `0x${toHex(bytes)}`;
    case BTYPE.BASE58:
    case BTYPE.CONTRACT_ID:
    case BTYPE.ADDRESS:
      return toBase58(bytes);
    default:
      return toBase64Url(bytes);
  }
}

/**
 * Parses bytes rendered for a field of this btype; base64 is accepted in either alphabet, padded or not. Base58 text
 * (addresses, contract ids) longer than {@link MAX_ADDRESS_TEXT_LENGTH} is refused before decoding. With `checkAddress`,
 * ADDRESS text must also be a valid address (as {@link addressFromString} checks it); the empty string stays "none".
 * @throws WalletError INVALID_JSON (INVALID_ADDRESS for a checked address) starting with `path`.
 * @example
 * bytesFromJson('0x1220', BTYPE.HEX, 'id'); // Uint8Array [0x12, 0x20]
 */
export function bytesFromJson(text: unknown, btype: Btype, path: string, checkAddress = false): Uint8Array {
  if (typeof text !== 'string') fail(path, 'a string', text, 'INVALID_JSON');
  switch (btype) {
    case BTYPE.HEX:
    case BTYPE.BLOCK_ID:
    case BTYPE.TRANSACTION_ID:
      return fromHex(text, `${path} ("0x" + hex)`, true);
    case BTYPE.ADDRESS:
      if (checkAddress && text !== '') return addressAt(text, path);
    // fall through: without the check an address is read as any base58
    case BTYPE.BASE58:
    case BTYPE.CONTRACT_ID:
      if (text.length > MAX_ADDRESS_TEXT_LENGTH) {
        throw new WalletError(
          'INVALID_JSON',
          `${path}: expected base58 text of at most ${MAX_ADDRESS_TEXT_LENGTH} characters (an address or a contract id), got ${text.length} characters`,
        );
      }
      return text === '' ? new Uint8Array(0) : fromBase58(text, `${path} (base58)`, MAX_ADDRESS_TEXT_LENGTH);
    default:
      try {
        return fromBase64(text, path);
      } catch (error) {
        // A nonce is the one bytes field people write by hand, as the number it stands for.
        if (!(error instanceof WalletError) || !path.endsWith('header.nonce')) throw error;
        throw new WalletError(error.code, error.shortMessage, {
          metaMessages: ['A nonce is the base64 of its value_type message: nonce 1 is "KAE=", 2 is "KAI=".'],
        });
      }
  }
}

/** An address field's bytes, or an INVALID_ADDRESS error that names the field: "header.payer: the address checksum …". */
function addressAt(text: string, path: string): Uint8Array {
  try {
    return addressFromString(text);
  } catch (cause) {
    if (!(cause instanceof WalletError)) throw cause;
    throw new WalletError('INVALID_ADDRESS', `${path}: ${cause.shortMessage}`, {
      metaMessages: cause.metaMessages,
      cause,
    });
  }
}

function scalarToJson(f: FieldPlan, v: unknown): JsonValue {
  switch (f.kind) {
    case 'bytes':
      return bytesToJson(v as Uint8Array, f.btype);
    case 'enum':
      return f.enumNames!.get(v as number) ?? (v as number);
    case 'double':
    case 'float': {
      const n = v as number;
      return Number.isFinite(n) ? n : Number.isNaN(n) ? 'NaN' : n > 0 ? 'Infinity' : '-Infinity';
    }
    default:
      return typeof v === 'bigint' ? v.toString() : (v as JsonValue);
  }
}

function messageToJson(plan: MessagePlan, obj: ProtoMessage, path: string): JsonObject {
  const out: JsonObject = {};
  for (const f of plan.fields) {
    const v = obj[f.name];
    if (v === undefined || v === null) continue;
    if (f.repeated) {
      if (!Array.isArray(v)) fail(fieldPath(path, f), 'an array', v, 'INVALID_ARGUMENT');
      if (v.length === 0) continue;
      const items: JsonValue[] = new Array(v.length);
      for (let i = 0; i < v.length; i++) items[i] = fieldToJson(f, v[i], path, i);
      out[f.name] = items;
      continue;
    }
    if (!f.presence && f.kind !== 'message' && isDefault(f, v)) continue;
    out[f.name] = fieldToJson(f, v, path);
  }
  return out;
}

/** JSON of field `f` (item `index` when repeated) of the message at `path`. */
function fieldToJson(f: FieldPlan, v: unknown, path: string, index?: number): JsonValue {
  if (f.kind === 'message') return messageToJson(subPlan(f), v as ProtoMessage, fieldPath(path, f, index));
  return scalarToJson(f, v);
}

/**
 * JSON rendering as the Koinos JSON-RPC gateway produces it.
 * @throws WalletError UNKNOWN_TYPE for a name not in proto/.
 * @example
 * toJson('koinos.chain.value_type', { uint64_value: 1n }) // { uint64_value: '1' }
 */
export function toJson<K extends MessageType>(type: K, value: MessageMap[K] | MessageInput<MessageMap[K]>): JsonObject;
export function toJson<S extends string>(type: RuntimeName<S>, value: object): JsonObject;
export function toJson(type: string, value: object): JsonObject {
  return toJsonWith(BUILTIN, type, value);
}

function toJsonWith(schema: Schema, type: string, value: object): JsonObject {
  const plan = planOf(type, schema);
  return messageToJson(plan, value as ProtoMessage, plan.name);
}

/** How the JSON reader treats what the message does not define and what an ADDRESS field holds. */
interface ReadMode {
  /** Check ADDRESS fields as addresses; field paths start at the message (`header.payer`). */
  strict: boolean;
  /** Refuse keys the message does not have. */
  rejectUnknown: boolean;
}

/** Reads scalar `v` of field `f` (item `index` when repeated) of the message at `path`. */
function scalarFromJson(f: FieldPlan, v: unknown, path: string, mode: ReadMode, index?: number): unknown {
  switch (f.kind) {
    case 'bool':
      if (typeof v !== 'boolean') fail(jsonFieldPath(path, f, index), 'true or false', v, 'INVALID_JSON');
      return v;
    case 'string':
      if (typeof v !== 'string') fail(jsonFieldPath(path, f, index), 'a string', v, 'INVALID_JSON');
      return v;
    case 'bytes':
      return bytesFromJson(v, f.btype, jsonFieldPath(path, f, index), mode.strict);
    case 'enum': {
      if (typeof v === 'string' && Object.hasOwn(f.enumValues!, v)) return f.enumValues![v];
      if (typeof v === 'number' && f.enumNames!.has(v)) return v;
      return fail(jsonFieldPath(path, f, index), `one of ${Object.keys(f.enumValues!).join(', ')}`, v, 'INVALID_JSON');
    }
    case 'double':
    case 'float':
      if (typeof v === 'number') return v;
      if (v === 'NaN') return NaN;
      if (v === 'Infinity') return Infinity;
      if (v === '-Infinity') return -Infinity;
      if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
      return fail(jsonFieldPath(path, f, index), 'a number', v, 'INVALID_JSON');
    default: {
      const n = toInteger(f.kind, v);
      if (typeof n === 'string') throw new WalletError('INVALID_JSON', `${jsonFieldPath(path, f, index)}: ${n}`);
      return IS_64.has(f.kind) ? n : Number(n);
    }
  }
}

/** `parent.name`, or `name` at the top of a strict read (whose paths start at the message's fields). */
function childPath(path: string, name: string): string {
  return path === '' ? name : `${path}.${name}`;
}

/** The path of field `f` (item `index` when given) of the message at `path` in a JSON read; built for errors only. */
function jsonFieldPath(path: string, f: FieldPlan, index?: number): string {
  const at = childPath(path, f.name);
  return index === undefined ? at : `${at}[${index}]`;
}

/** The error for a key the message does not have, naming the closest valid field. */
function unknownField(plan: MessagePlan, key: string, path: string): WalletError {
  const names = plan.fields.map((f) => f.name);
  const where = childPath(path, key.length > 40 ? `${key.slice(0, 37)}...` : key);
  if (names.length === 0) {
    return new WalletError('INVALID_JSON', `${where}: expected no fields in ${plan.name}, got an unknown field`, {
      metaMessages: ['Remove it.'],
    });
  }
  const closest = closestName(key, [...new Set([...names, ...plan.fields.map((f) => f.jsonName)])]);
  const suggestion = plan.byJsonKey.get(closest!)!.name;
  return new WalletError(
    'INVALID_JSON',
    `${where}: expected a field of ${plan.name}, got an unknown field; the closest valid name is "${suggestion}"`,
    {
      metaMessages: [`Valid fields: ${names.join(', ')}.`],
    },
  );
}

function messageFromJson(plan: MessagePlan, json: unknown, path: string, mode: ReadMode): ProtoMessage {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    if (path === '') throw new WalletError('INVALID_JSON', `expected a JSON object, got ${describe(json)}`);
    fail(path, 'a JSON object', json, 'INVALID_JSON');
  }
  const obj = emptyMessage(plan);
  let seenOneof: Map<string, string> | undefined;
  const record = json as Record<string, unknown>;
  for (const key in record) {
    if (!Object.hasOwn(record, key)) continue;
    const v = record[key];
    const f = plan.byJsonKey.get(key);
    if (!f && mode.rejectUnknown) throw unknownField(plan, key, path);
    if (!f || v === null || v === undefined) continue; // unknown fields are discarded, as the gateway does
    if (f.oneof) {
      seenOneof ??= new Map();
      const other = seenOneof.get(f.oneof);
      if (other && other !== f.name) {
        throw new WalletError(
          'INVALID_JSON',
          `${path || plan.name}: expected one member of oneof ${f.oneof}, got ${other} and ${f.name}`,
        );
      }
      seenOneof.set(f.oneof, f.name);
    }
    if (f.repeated) {
      if (!Array.isArray(v)) fail(jsonFieldPath(path, f), 'an array', v, 'INVALID_JSON');
      const items: unknown[] = new Array(v.length);
      for (let i = 0; i < v.length; i++) items[i] = fieldFromJson(f, v[i], path, mode, i);
      obj[f.name] = items;
    } else {
      obj[f.name] = fieldFromJson(f, v, path, mode);
    }
  }
  return finishMessage(plan, obj);
}

/** Reads field `f` (item `index` when repeated) of the message at `path`. */
function fieldFromJson(f: FieldPlan, v: unknown, path: string, mode: ReadMode, index?: number): unknown {
  if (f.kind === 'message') return messageFromJson(subPlan(f), v, jsonFieldPath(path, f, index), mode);
  return scalarFromJson(f, v, path, mode, index);
}

/** Options of {@link fromJson}. */
export interface FromJsonOptions {
  /**
   * The strict reader, for everything that will be signed or acted on: a key the message does not have is refused
   * (naming the closest valid field), and every ADDRESS field must be a valid address (length, version, checksum).
   * Error paths then start at the message's fields (`header.payer: …`) instead of its type name.
   */
  strict?: boolean;
  /**
   * With `strict`, what to do with a key the message does not have: 'reject' (the default) or 'discard'. Only a node
   * that must answer as the gateway does (which discards them) says 'discard'; it still gets the address checks.
   */
  unknownFields?: 'reject' | 'discard';
}

/**
 * Parses gateway JSON into a message object (accepting snake_case and lowerCamelCase keys). The default reader ignores
 * unknown keys, as the gateway does; `{ strict: true }` is the one reader for input that will be signed or acted on.
 * @throws WalletError INVALID_JSON naming the path, the expected form and what was found; INVALID_ADDRESS (strict)
 *   for an ADDRESS field that is not a valid address.
 * @example
 * fromJson('koinos.chain.value_type', { uint64_value: '1' }) // { uint64_value: 1n }
 * fromJson('koinos.contracts.token.transfer_arguments', { too: '1…' }, { strict: true });
 * // throws 'too: expected a field of koinos.contracts.token.transfer_arguments, got an unknown field; the closest valid name is "to"'
 */
export function fromJson<K extends MessageType>(type: K, json: unknown, options?: FromJsonOptions): MessageMap[K];
export function fromJson<S extends string>(
  type: RuntimeName<S>,
  json: unknown,
  options?: FromJsonOptions,
): ProtoMessage;
export function fromJson(type: string, json: unknown, options: FromJsonOptions = {}): ProtoMessage {
  return fromJsonWith<ProtoMessage>(BUILTIN, type, json, options);
}

function fromJsonWith<T>(schema: Schema, type: string, json: unknown, options: FromJsonOptions): T {
  const plan = planOf(type, schema);
  const strict = options.strict === true;
  const rejectUnknown = strict && options.unknownFields !== 'discard';
  return messageFromJson(plan, json, strict ? '' : plan.name, { strict, rejectUnknown }) as T;
}

const addressPathCache = new Map<string, readonly (readonly string[])[]>();

/**
 * Where the ADDRESS fields of a message type are: one path of field names per bytes field whose btype is ADDRESS,
 * in nested messages too (a repeated field on the path stands for each of its elements). CONTRACT_ID fields are not
 * listed: contract ids need not carry a checksum. For code that checks addresses a client sent (the devnet's requests).
 * @throws WalletError UNKNOWN_TYPE for a name not in proto/.
 * @example
 * addressFieldPaths('koinos.rpc.chain.submit_transaction_request'); // [['transaction', 'header', 'payer'], ['transaction', 'header', 'payee']]
 */
export function addressFieldPaths(type: string): readonly (readonly string[])[] {
  const cached = addressPathCache.get(type);
  if (cached) return cached;
  const paths: string[][] = [];
  const walk = (plan: MessagePlan, prefix: string[], seen: Set<string>) => {
    for (const f of plan.fields) {
      if (f.kind === 'bytes' && f.btype === BTYPE.ADDRESS) paths.push([...prefix, f.name]);
      // A message type is not entered again below itself (no proto/ type nests itself today; this keeps it finite).
      else if (f.kind === 'message' && !seen.has(f.typeName!))
        walk(planOf(f.typeName!), [...prefix, f.name], new Set([...seen, f.typeName!]));
    }
  };
  const plan = planOf(type);
  walk(plan, [], new Set([plan.name]));
  addressPathCache.set(type, paths);
  return paths;
}

/** The same canonical binary and gateway JSON over another set of types (a contract ABI's). */
export interface ProtoCodec {
  /** True when `name` is a message type of this codec. */
  hasType(name: string): boolean;
  /** As {@link encode}. */
  encode(type: string, value: object): Uint8Array;
  /** As {@link decode}. */
  decode<T = ProtoMessage>(type: string, bytes: Uint8Array): T;
  /** As {@link toJson}. */
  toJson(type: string, value: object): JsonObject;
  /** As {@link fromJson}. */
  fromJson<T = ProtoMessage>(type: string, json: unknown, options?: FromJsonOptions): T;
}

/**
 * A codec over the types of a protobufjs JSON namespace (koilib's `koilib_types` form), with the same rules as the
 * functions above: canonical order, defaults omitted, 64-bit integers as bigint, bytes rendered by `btype`.
 * The caller bounds the namespace's size first (contractAbi.ts does): plans are made lazily, one per type used.
 * @throws WalletError INVALID_ABI when the namespace does not load or a field names a type it does not define.
 * @example
 * const codec = createCodec({ nested: { v: { fields: { n: { type: 'uint64', id: 1 } } } } }, 'the contract ABI');
 * codec.encode('v', { n: 1n }); // Uint8Array [0x08, 0x01]
 */
export function createCodec(namespace: protobuf.INamespace, origin: string): ProtoCodec {
  let schemaRoot: protobuf.Root;
  try {
    schemaRoot = protobuf.Root.fromJSON(namespace);
    schemaRoot.resolveAll();
  } catch (cause) {
    const found = cause instanceof Error ? cause.message : String(cause);
    throw new WalletError(
      'INVALID_ABI',
      `expected protobuf types that load, got types that do not (${found.slice(0, 200)})`,
      { cause },
    );
  }
  const schema = reflectedSchema(schemaRoot, origin);
  return {
    hasType(name) {
      try {
        lookupType(name, schema);
        return true;
      } catch {
        return false;
      }
    },
    encode: (type, value) => encodeWith(schema, type, value),
    decode: <T = ProtoMessage>(type: string, bytes: Uint8Array) => decodeWith<T>(schema, type, bytes),
    toJson: (type, value) => toJsonWith(schema, type, value),
    fromJson: <T = ProtoMessage>(type: string, json: unknown, options: FromJsonOptions = {}) =>
      fromJsonWith<T>(schema, type, json, options),
  };
}
