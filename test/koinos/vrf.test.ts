// Koinos's VRF (vrf.ts) against koinos-crypto-cpp's vrf_tests known answers (test/vectors/vrf.json): the proof of
// "sample", the output of a known proof, every one-byte corruption refused, bad proof sizes refused.
import { describe, expect, it } from 'vitest';
import { fromHex, toHex, utf8ToBytes } from '../../src-main/koinos/bytes.ts';
import { publicKeyFromPrivateKey } from '../../src-main/koinos/keys.ts';
import { VRF_PROOF_LENGTH, vrfProve, vrfVerify } from '../../src-main/koinos/vrf.ts';
import { vrfVector as vector } from '../vrfVectors.ts';

describe('VRF (ECVRF-SECP256K1-SHA256-TAI, suite 0xFE)', () => {
  it('proves "sample" with the known key as koinos-crypto-cpp does, and the proof verifies', () => {
    const v = vector('koinos-crypto-vrf-prove');
    const privateKey = fromHex(v.private_key);
    const message = utf8ToBytes(v.message_utf8);
    const { proof, output } = vrfProve(privateKey, message);
    expect(toHex(proof)).toBe(v.proof);
    expect(vrfVerify(publicKeyFromPrivateKey(privateKey), proof, message)).toEqual(output);
  });

  it('verifies the known proof and answers the known output', () => {
    const v = vector('koinos-crypto-vrf-verify');
    const output = vrfVerify(fromHex(v.public_key), fromHex(v.proof), utf8ToBytes(v.message_utf8));
    expect(output && toHex(output)).toBe(v.output);
  });

  it('refuses the proof with any one byte changed (as vrf_tests does: 0x00 becomes 0x01, anything else 0x00)', () => {
    const v = vector('koinos-crypto-vrf-verify');
    const publicKey = fromHex(v.public_key);
    const message = utf8ToBytes(v.message_utf8);
    const proof = fromHex(v.proof);
    const refused: number[] = [];
    for (let i = 0; i < proof.length; i++) {
      const wrong = proof.slice();
      wrong[i] = wrong[i] === 0 ? 1 : 0;
      if (vrfVerify(publicKey, wrong, message) === null) refused.push(i);
    }
    expect(refused).toHaveLength(VRF_PROOF_LENGTH);
  });

  it('refuses a proof of another message or another key', () => {
    const v = vector('koinos-crypto-vrf-verify');
    const proof = fromHex(v.proof);
    expect(vrfVerify(fromHex(v.public_key), proof, utf8ToBytes('samplf'))).toBeNull();
    expect(
      vrfVerify(publicKeyFromPrivateKey(new Uint8Array(32).fill(7)), proof, utf8ToBytes(v.message_utf8)),
    ).toBeNull();
  });

  it('refuses proofs of 80 and 82 bytes, and a key that is not a compressed point', () => {
    const v = vector('koinos-crypto-vrf-bad-size');
    const message = utf8ToBytes(v.message_utf8);
    expect(v.proofs.map((p: string) => fromHex(p).length)).toEqual([80, 82]);
    for (const proof of v.proofs) expect(vrfVerify(fromHex(v.public_key), fromHex(proof), message)).toBeNull();
    const good = fromHex(vector('koinos-crypto-vrf-verify').proof);
    expect(vrfVerify(new Uint8Array(33), good, message)).toBeNull();
    expect(vrfVerify(fromHex(v.public_key).subarray(0, 32), good, message)).toBeNull();
  });

  it('round-trips other keys and messages (vrf_tests: same message, other provers; other messages, same prover)', () => {
    for (let i = 1; i <= 3; i++) {
      const privateKey = new Uint8Array(32).fill(i);
      for (const text of ['sample', `message${i}`, '']) {
        const message = utf8ToBytes(text);
        const { proof, output } = vrfProve(privateKey, message);
        expect(vrfVerify(publicKeyFromPrivateKey(privateKey), proof, message)).toEqual(output);
      }
    }
  });

  it('refuses to prove with an invalid private key', () => {
    expect(() => vrfProve(new Uint8Array(32), utf8ToBytes('sample'))).toThrow(/private key of 32 bytes/);
  });
});
