// The host's calls as the thunks make them: `systemCall` for the chain's own nested calls (system_call::NAME), and
// `invokeSystemCall` / `invokeThunk` for a contract the thunks run. The host (hostApi.ts) imports the thunks for its
// table, so the thunks cannot import the host back: the host registers itself here when it loads, and the thunks
// import only this module. No import circle, and a thunk run without the host fails loudly.
import type { ExecutionContext } from './executionContext.ts';
import type { HostResult } from './runModule.ts';
import type { SystemCallName } from './systemCallIds.ts';
import type { SystemCallArgs, SystemCallResult } from './systemCallMessages.ts';

/** What the host answers to the thunks. */
export interface HostCalls {
  systemCall<N extends SystemCallName>(ctx: ExecutionContext, name: N, args: SystemCallArgs<N>): SystemCallResult<N>;
  invokeSystemCall(ctx: ExecutionContext, sid: number, ret: Uint8Array, args: Uint8Array): HostResult;
  invokeThunk(ctx: ExecutionContext, tid: number, ret: Uint8Array, args: Uint8Array): HostResult;
}

let host: HostCalls | undefined;

/** Called once by hostApi.ts as it loads. */
export function registerHost(calls: HostCalls): void {
  host = calls;
}

function registered(): HostCalls {
  if (!host) throw new Error('the WebAssembly host (vm/hostApi.ts) is not loaded');
  return host;
}

/** hostApi.ts systemCall: a nested system call by name, through overrides, in a kernel frame. */
export function systemCall<N extends SystemCallName>(
  ctx: ExecutionContext,
  name: N,
  args: SystemCallArgs<N>,
): SystemCallResult<N> {
  return registered().systemCall(ctx, name, args);
}

/** hostApi.ts invokeSystemCall: env.invoke_system_call of a running contract. */
export function invokeSystemCall(ctx: ExecutionContext, sid: number, ret: Uint8Array, args: Uint8Array): HostResult {
  return registered().invokeSystemCall(ctx, sid, ret, args);
}

/** hostApi.ts invokeThunk: env.invoke_thunk of a running contract. */
export function invokeThunk(ctx: ExecutionContext, tid: number, ret: Uint8Array, args: Uint8Array): HostResult {
  return registered().invokeThunk(ctx, tid, ret, args);
}
