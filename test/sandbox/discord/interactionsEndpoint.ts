import { createPublicKey, verify } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the endpoint received, as it arrived. */
export interface ReceivedRequest {
  headers: IncomingMessage["headers"];
  body: string;
  /** The signature verified against the application's public key. */
  verified: boolean;
}

/** What the endpoint does with a verified interaction (PINGs are answered PONG before this). */
export type EndpointBehaviour = (
  interaction: { id: string; type: number; token: string; application_id: string },
  response: ServerResponse,
) => void | Promise<void>;

/** A tiny interactions endpoint for tests: it verifies signatures as a careful bot would. */
export interface TestEndpoint {
  url: string;
  received: ReceivedRequest[];
  /** Replace what it does with verified interactions (default: answers type 4 "pong"). */
  behave(behaviour: EndpointBehaviour): void;
  /** Skip the signature check (an endpoint Discord must refuse to save). */
  acceptAnySignature: boolean;
  close(): Promise<void>;
}

/** SPKI DER prefix of an Ed25519 public key; the 32 raw bytes follow. */
const SPKI_ED25519_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

/** Starts an endpoint that verifies `X-Signature-Ed25519` over timestamp + body with `publicKeyHex`. */
export async function startTestEndpoint(publicKeyHex: string): Promise<TestEndpoint> {
  const key = createPublicKey({
    key: Buffer.concat([SPKI_ED25519_PREFIX, Buffer.from(publicKeyHex, "hex")]),
    format: "der",
    type: "spki",
  });
  const received: ReceivedRequest[] = [];
  let behaviour: EndpointBehaviour = (_interaction, response) =>
    json(response, 200, { type: 4, data: { content: "pong" } });
  const endpoint: TestEndpoint = {
    url: "",
    received,
    behave: (next) => {
      behaviour = next;
    },
    acceptAnySignature: false,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const signature = request.headers["x-signature-ed25519"];
      const timestamp = request.headers["x-signature-timestamp"];
      const verified =
        typeof signature === "string" &&
        typeof timestamp === "string" &&
        /^[0-9a-f]{128}$/.test(signature) &&
        verify(null, Buffer.from(timestamp + body), key, Buffer.from(signature, "hex"));
      received.push({ headers: request.headers, body, verified });
      if (!verified && !endpoint.acceptAnySignature) {
        response.writeHead(401).end("invalid request signature");
        return;
      }
      let interaction: { id: string; type: number; token: string; application_id: string };
      try {
        interaction = JSON.parse(body) as typeof interaction;
      } catch {
        response.writeHead(400).end("not JSON");
        return;
      }
      if (interaction.type === 1) {
        json(response, 200, { type: 1 });
        return;
      }
      void behaviour(interaction, response);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  endpoint.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/interactions`;
  return endpoint;
}

/** Answers JSON with the right Content-Type. */
export function json(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(text),
  });
  response.end(text);
}
