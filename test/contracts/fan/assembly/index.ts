// The fan test contract's entry: the SDK's dispatch on System.getArguments().entry_point (the first 4 bytes of sha256
// of each method name), then System.exit with the result.
import { Protobuf, System } from "@koinos/sdk-as";
import { Fan } from "./Fan";
import { fan } from "./proto/fan";

export function main(): i32 {
  const call = System.getArguments();
  const contract = new Fan();
  let result = new Uint8Array(0);

  switch (call.entry_point) {
    case 0x19051351: {
      const args = Protobuf.decode<fan.cheer_arguments>(call.args, fan.cheer_arguments.decode);
      result = Protobuf.encode(contract.cheer(args), fan.cheer_result.encode);
      break;
    }
    case 0x0cf88f92: {
      const args = Protobuf.decode<fan.cheer_as_arguments>(call.args, fan.cheer_as_arguments.decode);
      result = Protobuf.encode(contract.cheer_as(args), fan.cheer_as_result.encode);
      break;
    }
    case 0x87d05cd0: {
      const args = Protobuf.decode<fan.entries_arguments>(call.args, fan.entries_arguments.decode);
      result = Protobuf.encode(contract.entries(args), fan.entries_result.encode);
      break;
    }
    default:
      System.revert("expected a known entry point, found 0x" + call.entry_point.toString(16));
  }

  System.exit(0, result);
  return 0;
}

main();
