// The protobuf types of a contract ABI as one clean, bounded protobufjs namespace: from `koilib_types` (a protobufjs
// JSON namespace) or from `types` (a base64 FileDescriptorSet, as koinos-sdk-as and koinos-cli write it). Read the
// way koilib's Serializer reads them (koilib src/Serializer.ts: koilib_types first, else the descriptor set).
import type { INamespace } from 'protobufjs';
import { fromBase64 } from './bytes.ts';
import { SCALAR_TYPES, createCodec } from './codec.ts';
import { WalletError, describe } from './errors.ts';

/** Most types (messages and enums) an ABI may define. */
export const MAX_ABI_TYPES = 2000;
/** Most fields and enum values, over all its types. */
const MAX_ABI_FIELDS = 20_000;
/** Deepest nesting of namespaces and messages. */
const MAX_NESTING = 32;
/** Longest type reference (`.koinos.contracts.token.transfer_arguments`). */
const MAX_TYPE_NAME = 256;

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const TYPE_REFERENCE = /^\.?[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$/;
/** koinos/options.proto `bytes_type`, by number (the value of field option 50000 in a descriptor set). */
const BTYPE_NAMES = ['BASE64', 'BASE58', 'HEX', 'BLOCK_ID', 'TRANSACTION_ID', 'CONTRACT_ID', 'ADDRESS'];
const MAX_FIELD_ID = 536_870_911;

function invalid(message: string): WalletError {
  return new WalletError('INVALID_ABI', `ABI types: ${message}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Counts what a namespace holds, so that a hostile ABI is refused before protobufjs builds anything from it. */
class Budget {
  types = 0;
  fields = 0;
  type(path: string): void {
    if (++this.types > MAX_ABI_TYPES) throw invalid(`expected at most ${MAX_ABI_TYPES} types, got more (at ${path})`);
  }
  field(path: string): void {
    if (++this.fields > MAX_ABI_FIELDS)
      throw invalid(`expected at most ${MAX_ABI_FIELDS} fields and enum values, got more (at ${path})`);
  }
}

function name(text: string, path: string): string {
  if (!IDENTIFIER.test(text)) throw invalid(`${path}: expected a protobuf identifier, got ${describe(text)}`);
  return text;
}

// ---------------------------------------------------------------------------------------------------------------
// koilib_types: a protobufjs JSON namespace, copied keeping only what a message codec reads

function cleanField(json: unknown, path: string): Record<string, unknown> {
  if (!isObject(json)) throw invalid(`${path}: expected a field object, got ${describe(json)}`);
  const { type, id, rule, options } = json;
  if (
    typeof type !== 'string' ||
    type.length > MAX_TYPE_NAME ||
    !(SCALAR_TYPES.has(type) || TYPE_REFERENCE.test(type))
  ) {
    throw invalid(`${path}.type: expected a scalar type or a type name, got ${describe(type)}`);
  }
  if (typeof id !== 'number' || !Number.isInteger(id) || id < 1 || id > MAX_FIELD_ID) {
    throw invalid(`${path}.id: expected a field number from 1 to ${MAX_FIELD_ID}, got ${describe(id)}`);
  }
  const field: Record<string, unknown> = { type, id };
  if (rule === 'repeated') field.rule = 'repeated';
  else if (rule !== undefined && rule !== 'optional')
    throw invalid(`${path}.rule: expected "repeated" or "optional", got ${describe(rule)}`);
  if (isObject(options)) {
    const kept: Record<string, unknown> = {};
    const btype = options['(koinos.btype)'] ?? options['(btype)'];
    if (typeof btype === 'string' && BTYPE_NAMES.includes(btype)) kept['(koinos.btype)'] = btype;
    if (options.proto3_optional === true) kept.proto3_optional = true;
    if (Object.keys(kept).length > 0) field.options = kept;
  }
  return field;
}

function cleanNamespace(json: unknown, path: string, depth: number, budget: Budget): Record<string, unknown> {
  if (!isObject(json)) throw invalid(`${path}: expected an object, got ${describe(json)}`);
  if (depth > MAX_NESTING) throw invalid(`${path}: expected namespaces nested at most ${MAX_NESTING} deep, got deeper`);
  const out: Record<string, unknown> = {};
  if (json.fields !== undefined) {
    budget.type(path);
    if (!isObject(json.fields)) throw invalid(`${path}.fields: expected an object, got ${describe(json.fields)}`);
    const fields: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(json.fields)) {
      budget.field(`${path}.${key}`);
      fields[name(key, `${path}.fields`)] = cleanField(value, `${path}.${key}`);
    }
    out.fields = fields;
    if (isObject(json.oneofs)) {
      const oneofs: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(json.oneofs)) {
        const members = isObject(value) ? value.oneof : undefined;
        if (!Array.isArray(members) || !members.every((m) => typeof m === 'string' && Object.hasOwn(fields, m))) {
          throw invalid(`${path}.oneofs.${key}: expected the names of fields of ${path}`);
        }
        oneofs[name(key, `${path}.oneofs`)] = { oneof: [...members] };
      }
      out.oneofs = oneofs;
    }
  } else if (json.values !== undefined) {
    budget.type(path);
    if (!isObject(json.values)) throw invalid(`${path}.values: expected an object, got ${describe(json.values)}`);
    const values: Record<string, number> = {};
    for (const [key, value] of Object.entries(json.values)) {
      budget.field(`${path}.${key}`);
      if (typeof value !== 'number' || !Number.isInteger(value) || value < -(2 ** 31) || value >= 2 ** 31) {
        throw invalid(`${path}.${key}: expected a 32-bit enum value, got ${describe(value)}`);
      }
      values[name(key, `${path}.values`)] = value;
    }
    return { values };
  }
  if (json.nested !== undefined) {
    if (!isObject(json.nested)) throw invalid(`${path}.nested: expected an object, got ${describe(json.nested)}`);
    const nested: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(json.nested)) {
      nested[name(key, `${path}.nested`)] = cleanNamespace(
        value,
        path === '' ? key : `${path}.${key}`,
        depth + 1,
        budget,
      );
    }
    out.nested = nested;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// types: a FileDescriptorSet (google/protobuf/descriptor.proto), read with the project's codec

/** The part of descriptor.proto a message codec needs, plus koinos/options.proto's `btype` (field option 50000). */
const DESCRIPTOR_TYPES: INamespace = {
  nested: {
    FileDescriptorSet: { fields: { file: { rule: 'repeated', type: 'FileDescriptorProto', id: 1 } } },
    FileDescriptorProto: {
      fields: {
        name: { type: 'string', id: 1 },
        package: { type: 'string', id: 2 },
        message_type: { rule: 'repeated', type: 'DescriptorProto', id: 4 },
        enum_type: { rule: 'repeated', type: 'EnumDescriptorProto', id: 5 },
        syntax: { type: 'string', id: 12 },
      },
    },
    DescriptorProto: {
      fields: {
        name: { type: 'string', id: 1 },
        field: { rule: 'repeated', type: 'FieldDescriptorProto', id: 2 },
        nested_type: { rule: 'repeated', type: 'DescriptorProto', id: 3 },
        enum_type: { rule: 'repeated', type: 'EnumDescriptorProto', id: 4 },
        oneof_decl: { rule: 'repeated', type: 'OneofDescriptorProto', id: 8 },
      },
    },
    FieldDescriptorProto: {
      fields: {
        name: { type: 'string', id: 1 },
        number: { type: 'int32', id: 3 },
        label: { type: 'int32', id: 4 },
        type: { type: 'int32', id: 5 },
        type_name: { type: 'string', id: 6 },
        options: { type: 'FieldOptions', id: 8 },
        // proto2 `optional`: index 0 is a oneof, absence is none.
        oneof_index: { type: 'int32', id: 9, options: { proto3_optional: true } },
        proto3_optional: { type: 'bool', id: 17 },
      },
      oneofs: { _oneof_index: { oneof: ['oneof_index'] } },
    },
    // Both optional: absent must stay absent (a default 0 would read as btype BASE64 on every option-bearing field).
    FieldOptions: {
      fields: {
        jstype: { type: 'int32', id: 6, options: { proto3_optional: true } },
        btype: { type: 'int32', id: 50000, options: { proto3_optional: true } },
      },
      oneofs: { _jstype: { oneof: ['jstype'] }, _btype: { oneof: ['btype'] } },
    },
    OneofDescriptorProto: { fields: { name: { type: 'string', id: 1 } } },
    EnumDescriptorProto: {
      fields: { name: { type: 'string', id: 1 }, value: { rule: 'repeated', type: 'EnumValueDescriptorProto', id: 2 } },
    },
    EnumValueDescriptorProto: { fields: { name: { type: 'string', id: 1 }, number: { type: 'int32', id: 2 } } },
  },
};

let descriptorCodec: ReturnType<typeof createCodec> | undefined;

interface FieldDescriptor {
  name: string;
  number: number;
  label: number;
  type: number;
  type_name: string;
  options?: { btype?: number; jstype?: number };
  oneof_index?: number;
  proto3_optional: boolean;
}
interface EnumDescriptor {
  name: string;
  value: { name: string; number: number }[];
}
interface MessageDescriptor {
  name: string;
  field: FieldDescriptor[];
  nested_type: MessageDescriptor[];
  enum_type: EnumDescriptor[];
  oneof_decl: { name: string }[];
}
interface FileDescriptor {
  name: string;
  package: string;
  message_type: MessageDescriptor[];
  enum_type: EnumDescriptor[];
}

/** descriptor.proto FieldDescriptorProto.Type, by number (10, group, is not supported). */
const FIELD_TYPES: Record<number, string> = {
  1: 'double',
  2: 'float',
  3: 'int64',
  4: 'uint64',
  5: 'int32',
  6: 'fixed64',
  7: 'fixed32',
  8: 'bool',
  9: 'string',
  12: 'bytes',
  13: 'uint32',
  15: 'sfixed32',
  16: 'sfixed64',
  17: 'sint32',
  18: 'sint64',
};

function enumJson(e: EnumDescriptor, path: string, budget: Budget): Record<string, unknown> {
  budget.type(path);
  const values: Record<string, number> = {};
  for (const v of e.value) {
    budget.field(`${path}.${v.name}`);
    values[name(v.name, path)] = v.number;
  }
  return { values };
}

function messageJson(m: MessageDescriptor, path: string, depth: number, budget: Budget): Record<string, unknown> {
  if (depth > MAX_NESTING) throw invalid(`${path}: expected messages nested at most ${MAX_NESTING} deep, got deeper`);
  budget.type(path);
  const fields: Record<string, unknown> = {};
  const oneofs: Record<string, string[]> = {};
  for (const f of m.field) {
    budget.field(`${path}.${f.name}`);
    const fieldPath = `${path}.${name(f.name, path)}`;
    let type = FIELD_TYPES[f.type];
    if (f.type === 11 || f.type === 14) {
      if (f.type_name.length > MAX_TYPE_NAME || !TYPE_REFERENCE.test(f.type_name)) {
        throw invalid(`${fieldPath}: expected a type name, got ${describe(f.type_name)}`);
      }
      type = f.type_name;
    }
    if (type === undefined) throw invalid(`${fieldPath}: expected a protobuf 3 field type, got type number ${f.type}`);
    if (f.number < 1 || f.number > MAX_FIELD_ID)
      throw invalid(`${fieldPath}: expected a field number from 1 to ${MAX_FIELD_ID}, got ${f.number}`);
    // Keys in protobufjs's toJSON order (rule first), as koinos-rest's ABI answer has them.
    const field: Record<string, unknown> = { ...(f.label === 3 && { rule: 'repeated' }), type, id: f.number };
    const options: Record<string, unknown> = {};
    // descriptor.proto FieldOptions.JSType: kept as protobufjs writes it (koinos-rest's ABI answer shows it).
    if (f.options?.jstype === 1) options.jstype = 'JS_STRING';
    else if (f.options?.jstype === 2) options.jstype = 'JS_NUMBER';
    const btype = f.options?.btype;
    if (btype !== undefined && BTYPE_NAMES[btype] !== undefined) options['(koinos.btype)'] = BTYPE_NAMES[btype];
    if (f.proto3_optional) options.proto3_optional = true;
    if (Object.keys(options).length > 0) field.options = options;
    fields[f.name] = field;
    if (f.oneof_index !== undefined) {
      const decl = m.oneof_decl[f.oneof_index];
      if (!decl) throw invalid(`${fieldPath}: expected the index of a oneof of ${path}, got ${f.oneof_index}`);
      (oneofs[name(decl.name, path)] ??= []).push(f.name);
    }
  }
  const out: Record<string, unknown> = { fields };
  if (Object.keys(oneofs).length > 0)
    out.oneofs = Object.fromEntries(Object.entries(oneofs).map(([k, v]) => [k, { oneof: v }]));
  const nested: Record<string, unknown> = {};
  for (const n of m.nested_type) nested[name(n.name, path)] = messageJson(n, `${path}.${n.name}`, depth + 1, budget);
  for (const e of m.enum_type) nested[name(e.name, path)] = enumJson(e, `${path}.${e.name}`, budget);
  if (Object.keys(nested).length > 0) out.nested = nested;
  return out;
}

/** The namespace of a FileDescriptorSet: one nested namespace per package, as protobufjs parses the .proto files. */
function descriptorSetNamespace(bytes: Uint8Array, budget: Budget): INamespace {
  descriptorCodec ??= createCodec(DESCRIPTOR_TYPES, 'descriptor.proto');
  let set: { file: FileDescriptor[] };
  try {
    set = descriptorCodec.decode<{ file: FileDescriptor[] }>('FileDescriptorSet', bytes);
  } catch (cause) {
    throw new WalletError(
      'INVALID_ABI',
      'ABI types: expected a FileDescriptorSet in base64, got bytes that do not decode as one',
      { cause },
    );
  }
  const root: Record<string, unknown> = {};
  for (const file of set.file) {
    let scope = root;
    for (const part of file.package === '' ? [] : file.package.split('.')) {
      const nested = ((scope.nested as Record<string, Record<string, unknown>> | undefined) ??= {});
      scope = nested[name(part, `package of ${file.name}`)] ??= {};
    }
    const nested = ((scope.nested as Record<string, unknown> | undefined) ??= {});
    const prefix = file.package === '' ? '' : `${file.package}.`;
    for (const m of file.message_type)
      nested[name(m.name, file.name)] = messageJson(m, `${prefix}${m.name}`, 1, budget);
    for (const e of file.enum_type) nested[name(e.name, file.name)] = enumJson(e, `${prefix}${e.name}`, budget);
  }
  return root as INamespace;
}

/**
 * The types of an ABI object as a bounded protobufjs namespace: `koilib_types` when present, else `types` (base64
 * FileDescriptorSet); `{}` when it has neither. Only what a message codec reads is kept (fields, oneofs, enum values,
 * the `btype` and `proto3_optional` options): no services, extensions or other options reach protobufjs.
 * @throws WalletError INVALID_ABI naming the place and the limit (at most {@link MAX_ABI_TYPES} types and
 *   {@link MAX_ABI_FIELDS} fields) when the types are malformed or too large.
 * @example
 * abiNamespace({ koilib_types: { nested: { v: { fields: { n: { type: 'uint64', id: 1 } } } } } });
 */
export function abiNamespace(abi: Record<string, unknown>): INamespace {
  const budget = new Budget();
  if (abi.koilib_types !== undefined) return cleanNamespace(abi.koilib_types, '', 0, budget) as INamespace;
  if (typeof abi.types === 'string' && abi.types !== '') {
    let bytes: Uint8Array;
    try {
      bytes = fromBase64(abi.types, 'types');
    } catch (cause) {
      throw new WalletError(
        'INVALID_ABI',
        'ABI types: expected a FileDescriptorSet in base64, got text that is not base64',
        { cause },
      );
    }
    return descriptorSetNamespace(bytes, budget);
  }
  return {};
}
