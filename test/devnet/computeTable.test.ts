// The devnet's one compute table: mainnet's genesis compute_bandwidth_registry serves the node's own checks, the native
// contracts and the WebAssembly host alike, is what the genesis writes, and a system call costs the same on both paths.
import { describe, expect, it } from 'vitest';
import { devKey } from '../../src-main/devnet/chain/devKeys.ts';
import { buildGenesis, OBJECT_KEYS } from '../../src-main/devnet/chain/genesis.ts';
import { COMPUTE, NATIVE_CONTRACT_COMPUTE } from '../../src-main/devnet/state/resources.ts';
import { COMPUTE_REGISTRY } from '../../src-main/devnet/vm/computeRegistry.ts';
import { ExecutionContext, PRIVILEGE } from '../../src-main/devnet/vm/executionContext.ts';
import { invokeSystemCall } from '../../src-main/devnet/vm/hostApi.ts';
import { SYSTEM_CALL_IDS } from '../../src-main/devnet/vm/systemCallIds.ts';
import { decode, encode } from '../../src-main/koinos/codec.ts';
import { key, submit, testNodes, transferTx } from './helpers.ts';
import { signedTransaction, testEnv } from './vm/hostEnv.ts';

describe('the compute table', () => {
  it("holds mainnet's registry values (koinos/koinos config-example/genesis_data.json, decoded; fidelity audit #10)", () => {
    expect(COMPUTE_REGISTRY.check_authority).toBe(12_653);
    expect(COMPUTE_REGISTRY.get_account_nonce).toBe(821);
    expect(COMPUTE_REGISTRY.set_account_nonce).toBe(749);
    expect(COMPUTE_REGISTRY.verify_account_nonce).toBe(822);
    expect(COMPUTE_REGISTRY.hash).toBe(1_570);
    expect(COMPUTE_REGISTRY.event_per_impacted).toBe(101);
    expect(COMPUTE_REGISTRY.verify_vrf_proof).toBe(144_067);
    expect(Object.keys(COMPUTE_REGISTRY)).toHaveLength(60);
  });

  it('charges the native path every registry entry at the registry value; only the native contracts add their own work', () => {
    for (const [name, compute] of Object.entries(COMPUTE_REGISTRY))
      expect([name, COMPUTE[name as keyof typeof COMPUTE]]).toEqual([name, compute]);
    const extra = Object.keys(COMPUTE).filter((name) => !(name in COMPUTE_REGISTRY));
    expect(extra.sort()).toEqual(Object.keys(NATIVE_CONTRACT_COMPUTE).sort());
    expect(extra.every((name) => name.startsWith('koin_'))).toBe(true);
  });

  it("writes mainnet's registry into the genesis, without the devnet's native-contract entries", () => {
    const genesis = buildGenesis({ seed: 'compute table', salt: new Uint8Array(0), accounts: 1, initialBalance: 1n });
    const entry = genesis.entries.find(
      (e) =>
        e.key.length === OBJECT_KEYS.computeBandwidthRegistry.length &&
        e.key.every((b, i) => b === OBJECT_KEYS.computeBandwidthRegistry[i]),
    );
    const registry = decode('koinos.chain.compute_bandwidth_registry', entry!.value);
    expect(Object.fromEntries(registry.entries.map((e) => [e.name, Number(e.compute)]))).toEqual(COMPUTE_REGISTRY);
  });

  it("charges check_authority the same from apply_transaction's payee check as from a WebAssembly contract's call", async () => {
    const [a, b, c] = [key(0), key(1), key(2)];
    // Natively: a transfer signed by a then b, without and with b as payee; the payee's check_authority is the difference
    // (its thunk, its read of b's contract metadata, and the recovery of both signatures to reach b's).
    const node = await testNodes()();
    const plainTx = await transferTx(node, a, c, 1n, { signers: [a, b] });
    const payeeTx = await transferTx(node, a, c, 1n, { signers: [a, b], payee: b.addressBytes });
    const plain = await submit(node, plainTx);
    const withPayee = await submit(node, payeeTx);
    // The id hash also reads the payee's bytes of the header.
    const headerBytes = (tx: typeof plainTx) => encode('koinos.protocol.transaction_header', tx.header!).length;
    const hashed = BigInt((headerBytes(payeeTx) - headerBytes(plainTx)) * COMPUTE.sha2_256_per_byte);
    const native = withPayee.compute_bandwidth_used - plain.compute_bandwidth_used - hashed;
    expect(native).toBe(BigInt(COMPUTE.check_authority + COMPUTE.get_object + 2 * COMPUTE.recover_public_key));

    // In the VM: a contract asks check_authority for b on a transaction signed by a then b.
    const env = testEnv({ transaction: signedTransaction('compute table', 0, 1) });
    const ctx = new ExecutionContext(env);
    ctx.pushFrame({
      contractId: devKey(20).addressBytes,
      privilege: PRIVILEGE.user,
      args: new Uint8Array(0),
      entryPoint: 0,
      sid: 0,
    });
    const args = encode('koinos.chain.check_authority_arguments', { type: 0, account: b.addressBytes });
    const ret = new Uint8Array(64);
    const result = invokeSystemCall(ctx, SYSTEM_CALL_IDS.check_authority, ret, args);
    expect(decode('koinos.chain.bool_result', ret.subarray(0, result.written)).value).toBe(true);
    // The VM also charges the argument bytes it deserializes, which the chain's own calls do not have.
    expect(env.meter.used - BigInt(args.length * COMPUTE.deserialize_message_per_byte)).toBe(native);
  });
});
