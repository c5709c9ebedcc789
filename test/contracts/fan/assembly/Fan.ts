// The fan test contract's methods, written with @koinos/sdk-as: it calls another contract (the guestbook) with
// System.call, so that the guestbook sees this contract as its caller, and reads the callee's result.
import { Protobuf, System } from "@koinos/sdk-as";
import { fan } from "./proto/fan";

/** The guestbook's entry points (test/contracts/guestbook/assembly/index.ts). */
const GUESTBOOK_SIGN: u32 = 0x0b6f395c;
const GUESTBOOK_COUNT: u32 = 0x6c35493a;

/** Calls a contract and returns its result; a failure there becomes a reversion here with its message. */
function callOrRevert(contract: Uint8Array, entryPoint: u32, args: Uint8Array): Uint8Array {
  // A reversion in the callee has ended this contract already (user mode); only failures come back as a code.
  const call = System.call(contract, entryPoint, args);
  System.require(call.code == 0, "the guestbook failed with code " + call.code.toString() + ": " + (call.res.error == null ? "" : call.res.error!.message));
  return call.res.object == null ? new Uint8Array(0) : call.res.object!;
}

export class Fan {
  contractId: Uint8Array = System.getContractId();

  sign(guestbook: Uint8Array, signer: Uint8Array, message: string): u64 {
    const args = Protobuf.encode(new fan.sign_request(signer, message), fan.sign_request.encode);
    const reply = Protobuf.decode<fan.sign_reply>(callOrRevert(guestbook, GUESTBOOK_SIGN, args), fan.sign_reply.decode);
    return reply.number;
  }

  cheer(args: fan.cheer_arguments): fan.cheer_result {
    return new fan.cheer_result(this.sign(args.guestbook!, this.contractId, args.message!));
  }

  cheer_as(args: fan.cheer_as_arguments): fan.cheer_as_result {
    return new fan.cheer_as_result(this.sign(args.guestbook!, args.signer!, args.message!));
  }

  entries(args: fan.entries_arguments): fan.entries_result {
    const reply = Protobuf.decode<fan.count_reply>(callOrRevert(args.guestbook!, GUESTBOOK_COUNT, new Uint8Array(0)), fan.count_reply.decode);
    return new fan.entries_result(reply.value);
  }
}
