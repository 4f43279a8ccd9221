import { Metadata, status } from "@grpc/grpc-js";
import {
  MongoClient,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoServerError,
  MongoTopologyClosedError,
} from "mongodb";
import mongoose from "mongoose";
import { NatsError } from "nats";
import { describe, expect, it } from "vitest";
import { AppError, fromGrpcError, toGrpcStatus } from "@billing/errors";
import { classifyFailure, PoisonMessage, RetryLater } from "./failure";
import { decideOnFailure } from "./retry-policy";

/** A gRPC client error as @grpc/grpc-js reports it, turned into our AppError as RpcClient does. */
function grpcFailure(code: status, metadata = new Metadata()) {
  return fromGrpcError(Object.assign(new Error("call failed"), { code, details: "call failed", metadata }));
}

/** A peer's own AppError, carried across gRPC in its metadata. */
function peerAppError(kind: string) {
  const metadata = new Metadata();
  metadata.set("app-error-kind", kind);
  return grpcFailure(kind === "not_allowed" ? status.ABORTED : status.INTERNAL, metadata);
}

describe("classifyFailure", () => {
  it("poison: a PoisonMessage (a body the contract refuses)", () => {
    expect(classifyFailure(new PoisonMessage("malformed"))).toBe("poison");
  });

  it("transient: RetryLater, here or thrown by a peer while serving a call (it travels as a 503)", () => {
    expect(classifyFailure(new RetryLater("not copied yet", 1000))).toBe("transient");
    expect(classifyFailure(new RetryLater("busy"))).toBe("transient");
    const sent = toGrpcStatus(new RetryLater("pay-in-advance buckets behind envelope e-1"));
    expect(sent.code).toBe(status.UNAVAILABLE);
    const received = fromGrpcError(
      Object.assign(new Error(sent.details), { code: sent.code!, details: sent.details!, metadata: sent.metadata! }),
    );
    expect([received.kind, received.message]).toEqual(["unavailable", "pay-in-advance buckets behind envelope e-1"]);
    expect(classifyFailure(received)).toBe("transient");
  });

  it.each([
    ["UNAVAILABLE", status.UNAVAILABLE],
    ["DEADLINE_EXCEEDED", status.DEADLINE_EXCEEDED],
    ["RESOURCE_EXHAUSTED", status.RESOURCE_EXHAUSTED],
    ["ABORTED", status.ABORTED],
    ["CANCELLED", status.CANCELLED],
  ])("transient: a peer's call failing with gRPC %s (no AppError of ours)", (_name, code) => {
    const err = grpcFailure(code);
    expect(err).toBeInstanceOf(AppError);
    expect(err.grpcStatus).toBe(code);
    expect(classifyFailure(err)).toBe("transient");
  });

  it("transient: a 503, 504 or 429 AppError, raised here or by a peer", () => {
    expect(
      classifyFailure(new AppError("unavailable", undefined, undefined, "x is being changed concurrently; retry")),
    ).toBe("transient");
    expect(classifyFailure(peerAppError("unavailable"))).toBe("transient");
    expect(classifyFailure(peerAppError("timeout"))).toBe("transient");
    expect(classifyFailure(peerAppError("too_many_requests"))).toBe("transient");
  });

  it("unknown: a peer's answer (not found, validation, its not_allowed over ABORTED), an INTERNAL transport status", () => {
    expect(classifyFailure(peerAppError("not_found"))).toBe("unknown");
    expect(classifyFailure(peerAppError("unprocessable"))).toBe("unknown");
    expect(classifyFailure(peerAppError("not_allowed"))).toBe("unknown");
    expect(classifyFailure(grpcFailure(status.INTERNAL))).toBe("unknown");
    expect(classifyFailure(AppError.internal())).toBe("unknown");
  });

  it("transient: MongoDB away (network, server selection, not connected, not primary, stepping down, retryable labels)", async () => {
    // a real server selection failure: nothing listens on port 1
    const nowhere = new MongoClient("mongodb://127.0.0.1:1", { serverSelectionTimeoutMS: 50 });
    const selection = await nowhere
      .db("x")
      .collection("y")
      .findOne({})
      .catch((err: unknown) => err);
    await nowhere.close();
    expect((selection as Error).name).toBe("MongoServerSelectionError");
    const away = [
      selection,
      new MongoNetworkError("connection reset"),
      new MongoNotConnectedError("not connected"),
      new MongoTopologyClosedError(),
      new mongoose.Error.MongooseServerSelectionError("no server"),
    ];
    for (const err of away) expect(classifyFailure(err), (err as Error).name).toBe("transient");
    // NotWritablePrimary, NotPrimaryNoSecondaryOk, NotPrimaryOrSecondary, InterruptedAtShutdown, InterruptedDueToReplStateChange, PrimarySteppedDown, ShutdownInProgress
    for (const code of [10107, 13435, 13436, 11600, 11602, 189, 91])
      expect(classifyFailure(new MongoServerError({ message: "election", code })), String(code)).toBe("transient");
    expect(
      classifyFailure(new MongoServerError({ message: "x", code: 999, errorLabels: ["RetryableWriteError"] })),
    ).toBe("transient");
    expect(
      classifyFailure(new mongoose.Error("Operation `invoices.findOne()` buffering timed out after 10000ms")),
    ).toBe("transient");
    expect(classifyFailure(new mongoose.Error("something else"))).toBe("unknown");
  });

  it("unknown: MongoDB's answers (a duplicate key, a bad query, a validation error)", () => {
    expect(classifyFailure(new MongoServerError({ message: "E11000 duplicate key", code: 11000 }))).toBe("unknown");
    expect(classifyFailure(new MongoServerError({ message: "bad query", code: 2 }))).toBe("unknown");
    expect(classifyFailure(new mongoose.Error.ValidationError())).toBe("unknown");
  });

  it("transient: NATS errors of the connection; unknown: a malformed subject or payload", () => {
    expect(classifyFailure(new NatsError("timeout", "TIMEOUT"))).toBe("transient");
    expect(classifyFailure(new NatsError("closed", "CONNECTION_CLOSED"))).toBe("transient");
    expect(classifyFailure(new NatsError("no responders", "503"))).toBe("transient");
    expect(classifyFailure(new NatsError("bad subject", "BAD_SUBJECT"))).toBe("unknown");
    expect(classifyFailure(new NatsError("too big", "MAX_PAYLOAD_EXCEEDED"))).toBe("unknown");
  });

  it("transient: a socket refused or reset; and through an error's cause", () => {
    expect(
      classifyFailure(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" })),
    ).toBe("transient");
    expect(classifyFailure(new Error("charging failed", { cause: new MongoNetworkError("reset") }))).toBe("transient");
    expect(classifyFailure(new Error("wrapped", { cause: new PoisonMessage("bad") }))).toBe("poison");
  });

  it("unknown: anything else", () => {
    expect(classifyFailure(new TypeError("cannot read properties of undefined"))).toBe("unknown");
    expect(classifyFailure("a string")).toBe("unknown");
    expect(classifyFailure(undefined)).toBe("unknown");
  });
});

describe("decideOnFailure", () => {
  const policy = { baseMs: 500, maxMs: 300_000, parkUnknownAfter: 50 };

  it("parks a poison message at its first delivery", () => {
    expect(decideOnFailure(new PoisonMessage("bad"), 1, policy)).toEqual({ kind: "poison", park: "poison" });
  });

  it("never parks a transient failure, whatever the deliveries: backs off up to the maximum", () => {
    expect(decideOnFailure(grpcFailure(status.UNAVAILABLE), 1, policy, () => 1)).toEqual({
      kind: "transient",
      retryInMs: 500,
    });
    expect(decideOnFailure(grpcFailure(status.UNAVAILABLE), 4, policy, () => 1)).toEqual({
      kind: "transient",
      retryInMs: 4000,
    });
    expect(decideOnFailure(grpcFailure(status.UNAVAILABLE), 10_000, policy, () => 1)).toEqual({
      kind: "transient",
      retryInMs: 300_000,
    });
  });

  it("a RetryLater's delay is its backoff's base", () => {
    expect(decideOnFailure(new RetryLater("not copied yet", 1000), 3, policy, () => 1)).toEqual({
      kind: "transient",
      retryInMs: 4000,
    });
    expect(decideOnFailure(new RetryLater("busy"), 3, policy, () => 1)).toEqual({ kind: "transient", retryInMs: 2000 });
  });

  it("backs off an unknown failure, then parks it at its parkUnknownAfter-th delivery", () => {
    expect(decideOnFailure(new TypeError("bug"), 49, policy, () => 1)).toEqual({ kind: "unknown", retryInMs: 300_000 });
    expect(decideOnFailure(new TypeError("bug"), 50, policy)).toEqual({
      kind: "unknown",
      park: "unknown_error_after_50",
    });
    expect(decideOnFailure(new TypeError("bug"), 3, { ...policy, parkUnknownAfter: 3 })).toEqual({
      kind: "unknown",
      park: "unknown_error_after_3",
    });
  });
});
