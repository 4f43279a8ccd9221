import { loadService } from "./proto";
import type { HandlerReplyOf, MethodName, ResponseOf, ServiceRef } from "./typed";

/**
 * A method's reply as protobuf bytes and back, through the loader's own serializers (the platform's
 * options: what decoding gives is what a client of the method receives). For keeping a reply as it
 * was answered (a snapshot) without writing its fields as document keys: decoding reads the bytes
 * by the message type, so what comes back is typed by the contract, not by a cast.
 */
export interface ReplyCodec<D, M extends MethodName<D>> {
  encode(reply: HandlerReplyOf<D, M>): Buffer;
  decode(bytes: Uint8Array): ResponseOf<D, M>;
}

export function replyCodec<D, M extends MethodName<D>>(ref: ServiceRef<D>, method: M): ReplyCodec<D, M> {
  let definition:
    { responseSerialize(value: unknown): Buffer; responseDeserialize(bytes: Buffer): unknown } | undefined;
  // loaded at first use: a module may build its codecs before the proto folder is needed
  const method$ = () => {
    definition ??= loadService(ref).service[method] as unknown as typeof definition & object;
    if (!definition) throw new Error(`method ${method} not found in ${ref.name}`);
    return definition;
  };
  return {
    encode: (reply) => method$().responseSerialize(reply),
    decode: (bytes) =>
      method$().responseDeserialize(Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes)) as ResponseOf<D, M>,
  };
}
