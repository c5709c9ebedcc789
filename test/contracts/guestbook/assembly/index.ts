// The guestbook test contract's entry: the SDK's dispatch on System.getArguments().entry_point (each id is the first
// 4 bytes of sha256 of the method name, as koinos-abi-proto-gen numbers them), then System.exit with the result.
import { Protobuf, System } from "@koinos/sdk-as";
import { Guestbook } from "./Guestbook";
import { guestbook } from "./proto/guestbook";

export function main(): i32 {
  const call = System.getArguments();
  const contract = new Guestbook();
  let result = new Uint8Array(0);

  switch (call.entry_point) {
    case 0x0b6f395c: {
      const args = Protobuf.decode<guestbook.sign_arguments>(call.args, guestbook.sign_arguments.decode);
      result = Protobuf.encode(contract.sign(args), guestbook.sign_result.encode);
      break;
    }
    case 0x208b3061: {
      const args = Protobuf.decode<guestbook.get_entry_arguments>(call.args, guestbook.get_entry_arguments.decode);
      result = Protobuf.encode(contract.get_entry(args), guestbook.entry.encode);
      break;
    }
    case 0x6c35493a: {
      result = Protobuf.encode(contract.count(), guestbook.count_result.encode);
      break;
    }
    case 0x97380187: {
      const args = Protobuf.decode<guestbook.tip_arguments>(call.args, guestbook.tip_arguments.decode);
      result = Protobuf.encode(contract.tip(args), guestbook.tip_result.encode);
      break;
    }
    case 0x04dc4f3d: {
      const args = Protobuf.decode<guestbook.payout_arguments>(call.args, guestbook.payout_arguments.decode);
      result = Protobuf.encode(contract.payout(args), guestbook.payout_result.encode);
      break;
    }
    default:
      System.revert("expected a known entry point, found 0x" + call.entry_point.toString(16));
  }

  System.exit(0, result);
  return 0;
}

main();
