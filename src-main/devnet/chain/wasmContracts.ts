// Uploaded WebAssembly contracts in the devnet: the bridge between its operations (a CallContext over a StateView
// and an RcMeter) and the VM host. upload_contract stores bytecode and metadata in the kernel spaces; call_contract
// and chain.read_contract run a stored contract; native contracts (KOIN, VHP, test tokens) answer `call` from wasm.
import { toBase58 } from '../../koinos/bytes.ts';
import { decode } from '../../koinos/codec.ts';
import type { Transaction, UploadContractOperation } from '../../koinos/types.ts';
import { ChainError } from '../state/chainError.ts';
import type { CallContext } from '../contracts/context.ts';
import { builtInAt, contractMetadata, KOIN, SYSTEM_CONTRACT_NAMES, systemContractAt } from '../contracts/registry.ts';
import { RESOURCE_LIMITS } from '../state/resources.ts';
import { equalBytes } from '../../koinos/bytes.ts';
import { KERNEL_SPACES, objectSpace, stateKey, type StateSource, type StateView } from '../state/state.ts';
import type { ObjectStore } from '../vm/objectStore.ts';
import { viewObjectStore } from '../state/stateObjectStore.ts';
import {
  callContract,
  readContract,
  READ_COMPUTE_LIMIT,
  setSystemCall,
  setSystemContract,
  uploadContract,
  type SetSystemCallOperation,
  type SetSystemContractOperation,
} from '../vm/contractOperations.ts';
import { contractMetadata as hostContractMetadata, AUTHORIZATION } from '../vm/contractThunks.ts';
import {
  ExecutionContext as HostContext,
  PRIVILEGE,
  type ComputeMeter,
  type ExecutionContext,
  type HostEnvironment,
  type NativeCall,
  type SystemServices,
} from '../vm/executionContext.ts';
import { nodeSystemCall, systemCall } from '../vm/hostApi.ts';
import { SYSTEM_CALL_IDS } from '../vm/systemCallIds.ts';

const EMPTY = new Uint8Array(0);
const BYTECODE_SPACE = objectSpace(EMPTY, 2);

/** Whether an uploaded contract's bytecode is stored at this id. */
export function isWasmContract(view: StateView, contractId: Uint8Array): boolean {
  return view.get(BYTECODE_SPACE, contractId) !== undefined;
}

/** The transaction's RcMeter as the host's compute meter (what rc_limit buys at the compute price, at most what the block has left). */
function rcComputeMeter(ctx: CallContext): ComputeMeter {
  const meter = ctx.meter!;
  return {
    remaining: () => meter.computeRemaining(),
    use: (compute) => meter.useCompute(Number(compute)),
  };
}

/** koinos/chain/error.proto compute_bandwidth_limit_exceeded. */
const COMPUTE_BANDWIDTH_LIMIT_EXCEEDED = -1013;

/**
 * A fixed compute budget without an rc session (read-only calls: koinos-chain's read_compute_bandwidth_limit); past
 * it, resource_meter.cpp's "compute bandwidth limit exceeded".
 */
function budgetMeter(limit: bigint): ComputeMeter {
  let used = 0n;
  return {
    remaining: () => limit - used,
    use: (compute) => {
      if (compute > limit - used) {
        used = limit;
        throw new ChainError(COMPUTE_BANDWIDTH_LIMIT_EXCEEDED, 'compute bandwidth limit exceeded');
      }
      used += compute;
    },
  };
}

/**
 * The contract that called the native contract running in the top frame, and its privilege: the frame below the
 * `call` system call frame, as get_caller answers a wasm contract (koinos-chain system_calls.cpp get_caller).
 */
function nativeCaller(hostCtx: ExecutionContext): { caller: Uint8Array; privilege: number } {
  const frame = hostCtx.stack[hostCtx.stack.length - 3];
  return { caller: frame?.contractId ?? EMPTY, privilege: frame?.privilege ?? PRIVILEGE.kernel };
}

/**
 * A native contract behind the host's `call`, seeing the calling contract as its caller. Its account checks are
 * koinos-sdk-as System.checkAccountAuthority, which the current KOIN, VHP and KCS-4 tokens use: a contract is
 * authorized for its own account; for another account only when that account is a contract that authorizes calls
 * (then the chain's check_authority asks its `authorize`); a transaction's signatures do not authorize a contract.
 */
function nativeBridge(ctx: CallContext): (contractId: Uint8Array) => NativeCall | undefined {
  return (contractId) => {
    const contract = builtInAt(ctx.view, contractId);
    if (!contract) return undefined;
    return (hostCtx, entryPoint, args) => {
      const { caller } = nativeCaller(hostCtx);
      if (caller.length === 0) return contract.call(ctx, entryPoint, args);
      const authorize = (account: Uint8Array): boolean => {
        if (equalBytes(caller, account)) return true;
        const meta = hostContractMetadata(hostCtx, account);
        if (meta?.authorizes_call_contract !== true) return false;
        return (
          systemCall(hostCtx, 'check_authority', { type: AUTHORIZATION.contract_call, account, data: args }).value ===
          true
        );
      };
      return contract.call({ ...ctx, caller, authorize }, entryPoint, args);
    };
  };
}

/**
 * What mainnet's system contracts answer through overrides, from the devnet's own: KOIN's mana, the resource limits
 * the devnet meters with (read at each call), the system names, and the metadata of the native system contracts.
 */
function systemServices(ctx: CallContext): SystemServices {
  return {
    accountRc: (account) => KOIN.accountRc(ctx.view, account, ctx.headBlockTime),
    consumeAccountRc: (account, rc) => KOIN.consumeAccountRc(ctx.view, account, rc, ctx.headBlockTime),
    resourceLimits: () => {
      const l = RESOURCE_LIMITS;
      return {
        disk_storage_limit: l.disk_storage_limit,
        disk_storage_cost: l.disk_storage_cost,
        network_bandwidth_limit: l.network_bandwidth_limit,
        network_bandwidth_cost: l.network_bandwidth_cost,
        compute_bandwidth_limit: l.compute_bandwidth_limit,
        compute_bandwidth_cost: l.compute_bandwidth_cost,
      };
    },
    contractName: (address) => [...SYSTEM_CONTRACT_NAMES].find(([, a]) => equalBytes(a, address))?.[0],
    contractAddress: (name) => SYSTEM_CONTRACT_NAMES.get(name),
    nativeMetadata: (id) => (systemContractAt(ctx.view, id) ? contractMetadata(ctx.view, id) : undefined),
  };
}

/** The state the chain reads overrides from, as the host's object store reads it (get only). */
function parentStore(source: StateSource): Pick<ObjectStore, 'get'> {
  return {
    get: (space, key) =>
      source.lookup(stateKey(objectSpace(space.zone ?? EMPTY, space.id ?? 0, space.system ?? false), key)),
  };
}

function environment(ctx: CallContext, transaction: Transaction | undefined, logs: string[]): HostEnvironment {
  return {
    state: viewObjectStore(ctx.view),
    meter: ctx.meter && !ctx.readOnly ? rcComputeMeter(ctx) : budgetMeter(READ_COMPUTE_LIMIT),
    useDisk: (bytes) => ctx.meter?.useDisk(bytes),
    readOnly: ctx.readOnly,
    chainId: ctx.chain?.chainId ?? EMPTY,
    headInfo:
      ctx.chain?.headInfo ??
      (() => ({
        head_topology: { id: EMPTY, previous: EMPTY, height: ctx.blockHeight },
        head_block_time: ctx.headBlockTime,
        last_irreversible_block: 0n,
      })),
    block: ctx.chain?.block,
    transaction,
    events: ctx.events,
    logs,
    sequence: ctx.sequence,
    nativeContract: nativeBridge(ctx),
    genesisAddress: ctx.genesisAddress,
    services: systemServices(ctx),
    dispatchState: ctx.chain ? parentStore(ctx.chain.parentState) : undefined,
    mempoolNonce: ctx.mempoolNonce,
  };
}

/** Whether an account is an uploaded contract whose metadata says it authorizes transaction application itself. */
export function authorizesTransactionApplication(view: StateView, account: Uint8Array): boolean {
  if (!isWasmContract(view, account)) return false;
  const bytes = view.get(KERNEL_SPACES.contractMetadata, account);
  if (!bytes) return false;
  return decode('koinos.chain.contract_metadata_object', bytes).authorizes_transaction_application === true;
}

/**
 * system_call::check_authority(transaction_application, account) as apply_transaction makes it for its payer and
 * payee: in a kernel frame with no operation, the host's check_authority (charged from the registry) calls the
 * contract's `authorize` entry point with authorize_arguments{type: transaction_application} and answers its value.
 * @throws ChainError whatever the contract's run throws (apply_transaction turns a reversion into a failure).
 */
export function checkTransactionAuthority(
  ctx: CallContext,
  transaction: Transaction,
  logs: string[],
  account: Uint8Array,
): boolean {
  const host = new HostContext(environment(ctx, transaction, logs));
  return host.withFrame(HostContext.systemFrame(SYSTEM_CALL_IDS.apply_transaction), () => {
    const result = systemCall(host, 'check_authority', { type: AUTHORIZATION.transaction_application, account });
    return result.value === true;
  });
}

/** call_contract to an uploaded contract (user mode; a failure becomes a reversion). */
export function callWasmContract(
  ctx: CallContext,
  transaction: Transaction | undefined,
  logs: string[],
  contractId: Uint8Array,
  entryPoint: number,
  args: Uint8Array,
): Uint8Array {
  return callContract(environment(ctx, transaction, logs), contractId, entryPoint, args).result;
}

/** chain.read_contract of an uploaded contract: read-only, at most 10,000,000 compute; returns the result and logs. */
export function readWasmContract(
  ctx: CallContext,
  contractId: Uint8Array,
  entryPoint: number,
  args: Uint8Array,
): { result: Uint8Array; logs: string[] } {
  const logs: string[] = [];
  const { result } = readContract(
    environment({ ...ctx, readOnly: true }, undefined, logs),
    contractId,
    entryPoint,
    args,
  );
  return { result, logs };
}

/** upload_contract: the contract id's authority, then bytecode and metadata in the kernel spaces. */
export function uploadWasmContract(
  ctx: CallContext,
  transaction: Transaction | undefined,
  logs: string[],
  op: UploadContractOperation,
): void {
  uploadContract(environment(ctx, transaction, logs), op, toBase58(op.contract_id));
}

/** set_system_call under the genesis authority (apply_set_system_call_operation). */
export function setSystemCallOperation(
  ctx: CallContext,
  transaction: Transaction | undefined,
  logs: string[],
  op: SetSystemCallOperation,
): void {
  setSystemCall(environment(ctx, transaction, logs), op);
}

/** set_system_contract under the genesis authority (apply_set_system_contract_operation). */
export function setSystemContractOperation(
  ctx: CallContext,
  transaction: Transaction | undefined,
  logs: string[],
  op: SetSystemContractOperation,
): void {
  setSystemContract(environment(ctx, transaction, logs), op);
}

/**
 * chain.invoke_system_call: the system call by id on a read-only context (overrides apply: get_contract_address and
 * get_contract_name answer through the name service); answers the result bytes.
 * @throws ChainError as the call fails (a missing name: "no record found for the name: X").
 */
export function invokeSystemCallReadOnly(ctx: CallContext, sid: number, args: Uint8Array): Uint8Array {
  return nodeSystemCall(new HostContext(environment({ ...ctx, readOnly: true }, undefined, [])), sid, args);
}
