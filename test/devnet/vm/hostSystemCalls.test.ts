// The system calls beyond state and contracts, as koinos-chain's thunks answer them: account nonces, the system
// authority, block signatures, mana and resources, merkle roots and VRF proofs, contract metadata and names; with
// their registry charges, privilege rules and error codes, called directly and from WAT contracts.
import { describe, expect, it } from 'vitest';
import { devKey, GENESIS_KEY_INDEX } from '../../../src-main/devnet/chain/devKeys.ts';
import { callContract } from '../../../src-main/devnet/vm/contractOperations.ts';
import { COMPUTE_REGISTRY } from '../../../src-main/devnet/vm/computeRegistry.ts';
import { ExecutionContext, PRIVILEGE, type Privilege } from '../../../src-main/devnet/vm/executionContext.ts';
import { invokeSystemCall } from '../../../src-main/devnet/vm/hostApi.ts';
import { MemoryObjectStore } from '../../../src-main/devnet/vm/objectStore.ts';
import { KERNEL_SPACE } from '../../../src-main/devnet/vm/stateThunks.ts';
import { SYSTEM_CALL_IDS, type SystemCallName } from '../../../src-main/devnet/vm/systemCallIds.ts';
import { fromHex, utf8ToBytes } from '../../../src-main/koinos/bytes.ts';
import { decode, encode } from '../../../src-main/koinos/codec.ts';
import { multihashSha256, sha256 } from '../../../src-main/koinos/hash.ts';
import { signDigest } from '../../../src-main/koinos/keys.ts';
import { merkleRoot, nonceToBytes } from '../../../src-main/koinos/transaction.ts';
import { vrfVector } from '../../vrfVectors.ts';
import {
  deploy,
  probeContract,
  probeResult,
  signedTransaction,
  testEnv,
  type TestEnv,
  chainErrorOf,
} from './hostEnv.ts';

const CONTRACT = devKey(20).addressBytes;
const M = 'koinos.chain.';

/** One system call from a contract frame of the given privilege, straight into the host. */
function direct(env: TestEnv, name: SystemCallName, args: Uint8Array, privilege: Privilege = PRIVILEGE.user) {
  const ctx = new ExecutionContext(env);
  ctx.pushFrame({ contractId: CONTRACT, privilege, args: new Uint8Array(0), entryPoint: 0, sid: 0 });
  const ret = new Uint8Array(4096);
  const before = env.meter.used;
  const result = invokeSystemCall(ctx, SYSTEM_CALL_IDS[name], ret, args);
  return { code: result.code, bytes: ret.slice(0, result.written), compute: env.meter.used - before };
}

const boolOf = (bytes: Uint8Array): boolean => decode(`${M}bool_result`, bytes).value === true;

describe('account nonces', () => {
  it('verifies the next nonce against the stored one, charged the registry and the argument bytes', () => {
    const env = testEnv();
    const account = devKey(3).addressBytes;
    env.state.put(KERNEL_SPACE.transactionNonce, account, nonceToBytes(4n));
    const args = (nonce: bigint) =>
      encode(`${M}verify_account_nonce_arguments`, { account, nonce: nonceToBytes(nonce) });
    const next = direct(env, 'verify_account_nonce', args(5n));
    expect([next.code, boolOf(next.bytes)]).toEqual([0, true]);
    // verify_account_nonce, then system_call::get_account_nonce inside it.
    expect(next.compute).toBe(
      BigInt(COMPUTE_REGISTRY.verify_account_nonce + COMPUTE_REGISTRY.get_account_nonce + args(5n).length),
    );
    expect(boolOf(direct(env, 'verify_account_nonce', args(4n)).bytes)).toBe(false);
  });

  it('answers a nonce without a uint64 value with invalid_nonce and the chain text', () => {
    const env = testEnv();
    const account = devKey(3).addressBytes;
    const result = direct(
      env,
      'verify_account_nonce',
      encode(`${M}verify_account_nonce_arguments`, { account, nonce: new Uint8Array([0x0a, 0x00]) }),
    );
    expect(result.code).toBe(-201);
    expect(decode(`${M}error_data`, result.bytes)).toEqual({
      message: `nonce did not contain uint64 value - nonce: 0x0a00, account: ${devKey(3).address}`,
    });
  });

  it('sets a nonce from kernel code only', () => {
    const env = testEnv();
    const account = devKey(3).addressBytes;
    const args = encode(`${M}set_account_nonce_arguments`, { account, nonce: nonceToBytes(9n) });
    const error = chainErrorOf(() => direct(env, 'set_account_nonce', args));
    expect([error.code, error.message]).toEqual([103, 'calling privileged thunk from non-privileged code']);
    expect(direct(env, 'set_account_nonce', args, PRIVILEGE.kernel).code).toBe(0);
    expect(env.state.get(KERNEL_SPACE.transactionNonce, account)).toEqual(nonceToBytes(9n));
  });
});

describe('the system authority', () => {
  it('is a signature of the genesis key on the transaction', () => {
    const signed = testEnv({ transaction: signedTransaction('system', 4, GENESIS_KEY_INDEX) });
    const result = direct(signed, 'check_system_authority', new Uint8Array(0));
    expect(boolOf(result.bytes)).toBe(true);
    // Its registry charge, the genesis key's get_object, and one recovery per signature looked at.
    expect(result.compute).toBe(
      BigInt(
        COMPUTE_REGISTRY.check_system_authority + COMPUTE_REGISTRY.get_object + 2 * COMPUTE_REGISTRY.recover_public_key,
      ),
    );
    expect(
      boolOf(
        direct(testEnv({ transaction: signedTransaction('user', 4) }), 'check_system_authority', new Uint8Array(0))
          .bytes,
      ),
    ).toBe(false);
  });

  it('processes a block signature of the genesis key', () => {
    const digest = multihashSha256(sha256(new TextEncoder().encode('block header')));
    const args = (key: number) =>
      encode(`${M}process_block_signature_arguments`, {
        digest,
        header: { height: 1n },
        signature: signDigest(digest.subarray(2), devKey(key).privateKey),
      });
    expect(boolOf(direct(testEnv(), 'process_block_signature', args(GENESIS_KEY_INDEX)).bytes)).toBe(true);
    expect(boolOf(direct(testEnv(), 'process_block_signature', args(5)).bytes)).toBe(false);
  });
});

describe('mana and resources', () => {
  it('answers an account mana and consumes it from kernel code only, with KOIN log lines', () => {
    const env = testEnv();
    const account = devKey(3).addressBytes;
    env.services.mana.set(Buffer.from(account).toString('hex'), 500n);
    const rc = direct(env, 'get_account_rc', encode(`${M}get_account_rc_arguments`, { account }));
    expect(decode(`${M}get_account_rc_result`, rc.bytes)).toEqual({ value: 500n });
    const consume = (value: bigint, privilege: Privilege) =>
      boolOf(
        direct(env, 'consume_account_rc', encode(`${M}consume_account_rc_arguments`, { account, value }), privilege)
          .bytes,
      );
    expect(consume(100n, PRIVILEGE.user)).toBe(false);
    expect(env.logs).toEqual(['The system call consume_account_rc must be called from kernel context']);
    expect(consume(100n, PRIVILEGE.kernel)).toBe(true);
    expect(consume(401n, PRIVILEGE.kernel)).toBe(false);
    expect(env.logs.at(-1)).toBe('Account has insufficient mana for consumption');
    expect(env.services.accountRc(account)).toBe(400n);
  });

  it('answers the resource limits the node gives, read at each call', () => {
    const env = testEnv();
    const first = direct(env, 'get_resource_limits', new Uint8Array(0));
    expect(decode(`${M}get_resource_limits_result`, first.bytes)).toEqual({ value: env.services.limits });
    expect(first.compute).toBe(BigInt(COMPUTE_REGISTRY.get_resource_limits));
    env.services.limits = { ...env.services.limits, compute_bandwidth_limit: 287_500_000n };
    expect(
      decode(`${M}get_resource_limits_result`, direct(env, 'get_resource_limits', new Uint8Array(0)).bytes),
    ).toEqual({ value: env.services.limits });
  });

  it('consumes block resources within the limits from kernel code only', () => {
    const env = testEnv();
    const args = (compute: bigint) =>
      encode(`${M}consume_block_resources_arguments`, {
        disk_storage_consumed: 1n,
        compute_bandwidth_consumed: compute,
      });
    expect(boolOf(direct(env, 'consume_block_resources', args(5n)).bytes)).toBe(false);
    expect(env.logs).toEqual(['The system call consume_block_resources must be called from kernel context']);
    expect(boolOf(direct(env, 'consume_block_resources', args(5n), PRIVILEGE.kernel).bytes)).toBe(true);
    expect(boolOf(direct(env, 'consume_block_resources', args(6n), PRIVILEGE.kernel).bytes)).toBe(false);
  });
});

describe('merkle roots and VRF proofs', () => {
  const leaves = ['a', 'b', 'c'].map((t) => sha256(new TextEncoder().encode(t)));
  const hashes = leaves.map(multihashSha256);

  it('verifies a sha2-256 merkle root as koinos-crypto builds it, charged per multihash and per tree hash', () => {
    const root = multihashSha256(merkleRoot(leaves));
    const args = encode(`${M}verify_merkle_root_arguments`, { root, hashes });
    const result = direct(testEnv(), 'verify_merkle_root', args);
    expect(boolOf(result.bytes)).toBe(true);
    const deserialize =
      4 * (COMPUTE_REGISTRY.deserialize_multihash_base + 34 * COMPUTE_REGISTRY.deserialize_multihash_per_byte);
    const hashing = 3 * (COMPUTE_REGISTRY.sha2_256_base + 64 * COMPUTE_REGISTRY.sha2_256_per_byte); // hashes_per_leaves(3) = 3
    expect(result.compute).toBe(BigInt(COMPUTE_REGISTRY.verify_merkle_root + args.length + deserialize + hashing));
    const wrong = encode(`${M}verify_merkle_root_arguments`, { root, hashes: [hashes[1]!, hashes[0]!, hashes[2]!] });
    expect(boolOf(direct(testEnv(), 'verify_merkle_root', wrong).bytes)).toBe(false);
    expect(
      boolOf(
        direct(
          testEnv(),
          'verify_merkle_root',
          encode(`${M}verify_merkle_root_arguments`, { root: multihashSha256(sha256(new Uint8Array(0))) }),
        ).bytes,
      ),
    ).toBe(true);
  });

  it('refuses leaves of another hash code', () => {
    const root = multihashSha256(merkleRoot(leaves));
    const sha1Leaf = Uint8Array.from([0x11, 20, ...new Uint8Array(20)]);
    const result = direct(
      testEnv(),
      'verify_merkle_root',
      encode(`${M}verify_merkle_root_arguments`, { root, hashes: [sha1Leaf] }),
    );
    expect(result.code).toBe(-101);
    expect(decode(`${M}error_data`, result.bytes)).toEqual({ message: 'leaf and merkle root hash codes do not match' });
  });

  it('verifies a VRF proof and its output hash as koinos-crypto-cpp does, charged the registry and the argument bytes', () => {
    const v = vrfVector('koinos-crypto-vrf-verify');
    const args = (fields: Record<string, unknown>) =>
      encode(`${M}verify_vrf_proof_arguments`, {
        type: 0,
        public_key: fromHex(v.public_key),
        proof: fromHex(v.proof),
        hash: multihashSha256(fromHex(v.output)),
        message: utf8ToBytes(v.message_utf8),
        ...fields,
      });
    const right = direct(testEnv(), 'verify_vrf_proof', args({}));
    expect([right.code, boolOf(right.bytes)]).toEqual([0, true]);
    expect(right.compute).toBe(BigInt(COMPUTE_REGISTRY.verify_vrf_proof + args({}).length));
    // Another output hash, a corrupted proof, another message: false, as the chain answers a vrf_validation_error.
    expect(boolOf(direct(testEnv(), 'verify_vrf_proof', args({ hash: hashes[0] })).bytes)).toBe(false);
    const wrong = fromHex(v.proof);
    wrong[40] = wrong[40]! ^ 1;
    expect(boolOf(direct(testEnv(), 'verify_vrf_proof', args({ proof: wrong })).bytes)).toBe(false);
    expect(boolOf(direct(testEnv(), 'verify_vrf_proof', args({ message: utf8ToBytes('other') })).bytes)).toBe(false);
  });

  it('answers false for a proof that is not 81 bytes ("proof must be 81 bytes" is caught by the chain)', () => {
    const v = vrfVector('koinos-crypto-vrf-bad-size');
    for (const proof of v.proofs as string[]) {
      const args = encode(`${M}verify_vrf_proof_arguments`, {
        type: 0,
        public_key: fromHex(v.public_key),
        proof: fromHex(proof),
        hash: hashes[0],
        message: utf8ToBytes(v.message_utf8),
      });
      const result = direct(testEnv(), 'verify_vrf_proof', args);
      expect([result.code, boolOf(result.bytes)]).toEqual([0, false]);
    }
  });

  it('refuses a public key that is not a compressed point with code 1, and another dsa with -102', () => {
    const v = vrfVector('koinos-crypto-vrf-verify');
    const args = (type: number, publicKey: Uint8Array) =>
      encode(`${M}verify_vrf_proof_arguments`, {
        type,
        public_key: publicKey,
        proof: fromHex(v.proof),
        hash: hashes[0],
        message: new Uint8Array([1]),
      });
    for (const publicKey of [new Uint8Array(33), fromHex(v.public_key).subarray(0, 32)]) {
      // A user contract's call with code >= 1 reverts the transaction; from kernel code the error comes back as data.
      const bad = direct(testEnv(), 'verify_vrf_proof', args(0, publicKey), PRIVILEGE.kernel);
      expect([bad.code, decode(`${M}error_data`, bad.bytes)]).toEqual([
        1,
        { message: 'unknown error during public key deserialization' },
      ]);
    }
    const other = direct(testEnv(), 'verify_vrf_proof', args(1, fromHex(v.public_key)));
    expect([other.code, decode(`${M}error_data`, other.bytes)]).toEqual([-102, { message: 'unexpected dsa' }]);
  });
});

describe('contract metadata and names', () => {
  it('answers the metadata of an uploaded contract and of a native one, empty for none', async () => {
    const state = new MemoryObjectStore();
    const id = deploy(state, await probeContract(SYSTEM_CALL_IDS.nop, new Uint8Array(0)), 21, {
      authorizes_call_contract: true,
    });
    const env = testEnv({ state });
    const meta = (contractId: Uint8Array) =>
      decode(
        `${M}get_contract_metadata_result`,
        direct(env, 'get_contract_metadata', encode(`${M}get_contract_metadata_arguments`, { contract_id: contractId }))
          .bytes,
      ).value;
    expect(meta(id)).toMatchObject({ authorizes_call_contract: true, system: false });
    const native = devKey(22).addressBytes;
    env.services.natives.set(Buffer.from(native).toString('hex'), { hash: new Uint8Array([0x12, 0]), system: true });
    expect(meta(native)).toMatchObject({ system: true });
    expect(meta(devKey(23).addressBytes)).toBeUndefined();
  });

  it('resolves system names both ways through the node', () => {
    const env = testEnv();
    env.services.names.set('koin', devKey(24).addressBytes);
    const NS = 'koinos.contracts.name_service.';
    const address = direct(env, 'get_contract_address', encode(`${NS}get_address_arguments`, { name: 'koin' }));
    expect(decode(`${NS}get_address_result`, address.bytes)).toEqual({ value: { address: devKey(24).addressBytes } });
    const name = direct(
      env,
      'get_contract_name',
      encode(`${NS}get_name_arguments`, { address: devKey(24).addressBytes }),
    );
    expect(decode(`${NS}get_name_result`, name.bytes)).toEqual({ value: { name: 'koin' } });
    expect(
      direct(env, 'get_contract_name', encode(`${NS}get_name_arguments`, { address: devKey(25).addressBytes })).bytes
        .length,
    ).toBe(0);
  });
});

describe('block and transaction thunks', () => {
  it('refuses apply_* to user code as the chain does, and runs the callbacks as no-ops', () => {
    const env = testEnv();
    const error = chainErrorOf(() => direct(env, 'apply_transaction', new Uint8Array(0)));
    expect([error.code, error.message]).toEqual([103, 'calling privileged thunk from non-privileged code']);
    const callback = direct(env, 'pre_transaction_callback', new Uint8Array(0));
    expect([callback.code, callback.bytes.length, callback.compute]).toEqual([
      0,
      0,
      BigInt(COMPUTE_REGISTRY.pre_transaction_callback),
    ]);
  });
});

describe('ids without a genesis thunk', () => {
  it('aborts user code calling nop or an unknown id with unknown_thunk', async () => {
    for (const sid of [SYSTEM_CALL_IDS.nop, 9999]) {
      const state = new MemoryObjectStore();
      const id = deploy(state, await probeContract(sid, new Uint8Array(0)), 20);
      const error = chainErrorOf(() => callContract(testEnv({ state }), id, 0, new Uint8Array(0)));
      expect([error.code, error.message]).toEqual([106, `thunk ${sid} is not enabled`]);
    }
  });

  it('answers a contract calling get_account_rc with its mana', async () => {
    const state = new MemoryObjectStore();
    const account = devKey(3).addressBytes;
    const id = deploy(
      state,
      await probeContract(SYSTEM_CALL_IDS.get_account_rc, encode(`${M}get_account_rc_arguments`, { account })),
      20,
    );
    const env = testEnv({ state });
    env.services.mana.set(Buffer.from(account).toString('hex'), 12_345n);
    const { code, bytes } = probeResult(callContract(env, id, 0, new Uint8Array(0)).result);
    expect(code).toBe(0);
    expect(decode(`${M}get_account_rc_result`, bytes)).toEqual({ value: 12_345n });
  });
});
