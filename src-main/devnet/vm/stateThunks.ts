// The system calls on chain state and the chronicler: put/get/remove/next/prev object with the chain's permission
// rules (state::assert_permissions), log and event, and the read-only facts of the head, chain, transaction and block.
import { ChainError, ERROR_CODE } from '../state/chainError.ts';
import type { ObjectSpace } from '../../koinos/types.ts';
import { HOST_ERROR, PRIVILEGE, type ExecutionContext } from './executionContext.ts';
import { fieldValue } from './fieldValue.ts';
import { encode } from '../../koinos/codec.ts';

const EMPTY = new Uint8Array(0);

/** Kernel object spaces (koinos/chain/object_spaces: zone empty, system). */
export const KERNEL_SPACE = {
  metadata: { system: true, zone: EMPTY, id: 0 },
  systemCallDispatch: { system: true, zone: EMPTY, id: 1 },
  contractBytecode: { system: true, zone: EMPTY, id: 2 },
  contractMetadata: { system: true, zone: EMPTY, id: 3 },
  transactionNonce: { system: true, zone: EMPTY, id: 4 },
} as const satisfies Record<string, ObjectSpace>;

function equal(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** state.cpp assert_permissions: kernel code only system spaces; user code only its own zone's non-system spaces. */
function assertPermissions(ctx: ExecutionContext, space: ObjectSpace): void {
  if (ctx.callerPrivilege() === PRIVILEGE.kernel) {
    if (!space.system) throw new ChainError(ERROR_CODE.reversion, 'privileged code can only access system space');
  } else {
    if (space.system) throw new ChainError(HOST_ERROR.insufficient_privileges, 'user code cannot access system space');
    if (!equal(space.zone ?? EMPTY, ctx.caller())) {
      throw new ChainError(ERROR_CODE.reversion, 'user code cannot access other contract space');
    }
  }
}

function readOnlyGuard(ctx: ExecutionContext, what: 'put' | 'remove'): void {
  if (ctx.env.readOnly)
    throw new ChainError(ERROR_CODE.read_only_context, `cannot ${what} object during read only call`);
}

function space(value: Partial<ObjectSpace> | undefined): ObjectSpace {
  return { system: value?.system ?? false, zone: value?.zone ?? EMPTY, id: value?.id ?? 0 };
}

export interface ObjectArgs {
  space?: Partial<ObjectSpace>;
  key?: Uint8Array;
  obj?: Uint8Array;
}

export function putObject(ctx: ExecutionContext, args: ObjectArgs): undefined {
  readOnlyGuard(ctx, 'put');
  const obj = args.obj ?? EMPTY;
  ctx.useCompute(ctx.compute('object_serialization_per_byte') * obj.length);
  const s = space(args.space);
  assertPermissions(ctx, s);
  ctx.env.useDisk?.(ctx.env.state.put(s, args.key ?? EMPTY, obj));
  return undefined;
}

export function removeObject(ctx: ExecutionContext, args: ObjectArgs): undefined {
  readOnlyGuard(ctx, 'remove');
  const s = space(args.space);
  assertPermissions(ctx, s);
  ctx.env.useDisk?.(ctx.env.state.remove(s, args.key ?? EMPTY));
  return undefined;
}

export interface DatabaseObject {
  exists?: boolean;
  value?: Uint8Array;
  key?: Uint8Array;
}

/** A missing object answers an empty result message (no `value` field), as the chain serializes it. */
export function getObject(ctx: ExecutionContext, args: ObjectArgs): { value?: DatabaseObject } {
  const s = space(args.space);
  assertPermissions(ctx, s);
  const value = ctx.env.state.get(s, args.key ?? EMPTY);
  if (!value) return {};
  ctx.useCompute(ctx.compute('object_serialization_per_byte') * value.length);
  return { value: { exists: true, value } };
}

function neighbour(ctx: ExecutionContext, args: ObjectArgs, direction: 'next' | 'prev'): { value?: DatabaseObject } {
  const s = space(args.space);
  assertPermissions(ctx, s);
  const found = ctx.env.state[direction](s, args.key ?? EMPTY);
  if (!found) return {};
  ctx.useCompute(ctx.compute('object_serialization_per_byte') * found.value.length);
  return { value: { exists: true, value: found.value, key: found.key } };
}

export function getNextObject(ctx: ExecutionContext, args: ObjectArgs): { value?: DatabaseObject } {
  return neighbour(ctx, args, 'next');
}

export function getPrevObject(ctx: ExecutionContext, args: ObjectArgs): { value?: DatabaseObject } {
  return neighbour(ctx, args, 'prev');
}

/** Whether decoding kept the text intact (the codec replaces invalid UTF-8 with U+FFFD). */
function validUtf8(text: string): boolean {
  return !text.includes('\uFFFD');
}

export function log(ctx: ExecutionContext, args: { message?: string }): undefined {
  const message = args.message ?? '';
  if (!validUtf8(message)) throw new ChainError(ERROR_CODE.reversion, 'log entry contains invalid utf-8');
  ctx.env.logs.push(message);
  return undefined;
}

export function event(
  ctx: ExecutionContext,
  args: { name?: string; data?: Uint8Array; impacted?: Uint8Array[] },
): undefined {
  const name = args.name ?? '';
  if (name.length === 0) throw new ChainError(ERROR_CODE.reversion, 'event name cannot be empty');
  if (new TextEncoder().encode(name).length > 128)
    throw new ChainError(ERROR_CODE.reversion, 'event name cannot be larger than 128 bytes');
  if (!validUtf8(name)) throw new ChainError(ERROR_CODE.reversion, 'event name contains invalid utf-8');
  const impacted = args.impacted ?? [];
  ctx.useCompute(ctx.compute('event_per_impacted') * impacted.length);
  ctx.env.events.push({
    sequence: ctx.env.sequence.next++,
    source: ctx.caller(),
    name,
    data: args.data ?? EMPTY,
    impacted,
  });
  return undefined;
}

export function getHeadInfo(ctx: ExecutionContext): { value: object } {
  return { value: ctx.env.headInfo() };
}

export function getChainId(ctx: ExecutionContext): { value: Uint8Array } {
  return { value: ctx.env.chainId };
}

export function getLastIrreversibleBlock(ctx: ExecutionContext): { value: bigint } {
  return { value: ctx.env.headInfo().last_irreversible_block };
}

export function getTransaction(ctx: ExecutionContext): { value: object } {
  if (!ctx.env.transaction) throw new ChainError(HOST_ERROR.internal_error, 'transaction does not exist');
  return { value: ctx.env.transaction };
}

export function getBlock(ctx: ExecutionContext): { value: object } {
  const block = ctx.env.block?.();
  if (!block) throw new ChainError(HOST_ERROR.internal_error, 'block does not exist');
  return { value: block };
}

export function getTransactionField(ctx: ExecutionContext, args: { field?: string }): { value: object } {
  if (!ctx.env.transaction) throw new ChainError(HOST_ERROR.internal_error, 'transaction does not exist');
  return { value: fieldValue('koinos.protocol.transaction', ctx.env.transaction, args.field ?? '') };
}

export function getBlockField(ctx: ExecutionContext, args: { field?: string }): { value: object } {
  const block = ctx.env.block?.();
  if (!block) throw new ChainError(HOST_ERROR.internal_error, 'block does not exist');
  return { value: fieldValue('koinos.protocol.block', block, args.field ?? '') };
}

/** get_account_nonce: the nonce object of the account (a serialized value_type), or uint64 0 when it has none. */
export function getAccountNonce(ctx: ExecutionContext, args: { account?: Uint8Array }): { value: Uint8Array } {
  const found = ctx.env.state.get(KERNEL_SPACE.transactionNonce, args.account ?? EMPTY);
  return { value: found ?? encode('koinos.chain.value_type', { uint64_value: 0n }) };
}

export function getOperation(ctx: ExecutionContext): { value: object } {
  if (!ctx.env.operation) throw new ChainError(-104, 'outside an operational context');
  return { value: ctx.env.operation };
}
