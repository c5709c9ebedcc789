// The sponsor test contract's entry: the SDK's dispatch on System.getArguments().entry_point, then System.exit with
// the result. `authorize` (0x4a2dbd90) is the entry point the chain's check_authority calls.
import { Protobuf, System, authority } from "@koinos/sdk-as";
import { Sponsor } from "./Sponsor";
import { sponsor } from "./proto/sponsor";

export function main(): i32 {
  const call = System.getArguments();
  const contract = new Sponsor();
  let result = new Uint8Array(0);

  switch (call.entry_point) {
    case 0x4a2dbd90: {
      const args = Protobuf.decode<authority.authorize_arguments>(call.args, authority.authorize_arguments.decode);
      result = Protobuf.encode(contract.authorize(args), authority.authorize_result.encode);
      break;
    }
    case 0xd8b3628e: {
      result = Protobuf.encode(contract.get_limit(), sponsor.get_limit_result.encode);
      break;
    }
    default:
      System.revert("expected a known entry point, found 0x" + call.entry_point.toString(16));
  }

  System.exit(0, result);
  return 0;
}

main();
