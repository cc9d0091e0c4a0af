// An A2A agent served by the official A2A JavaScript SDK (@a2a-js/sdk, pinned in package.json):
// its DefaultRequestHandler, in-memory task store, JSON-RPC handler and Agent Card handler; only
// the executor is ours. Its task goes submitted → working → completed with an artifact (or
// failed with a status message when the task text asks for it), slowly enough to need polling.
import express from "express";
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } from "@a2a-js/sdk/server";
import { agentCardHandler, jsonRpcHandler, UserBuilder } from "@a2a-js/sdk/server/express";
import { Role, TaskState } from "@a2a-js/sdk";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const text = (value) => ({ content: { $case: "text", value } });

class TravelExecutor {
  constructor(log) { this.log = log; }
  async execute(ctx, bus) {
    const asked = ctx.userMessage.parts.map((p) => (p.content?.$case === "text" ? p.content.value : "")).join("");
    this.log.push(asked);
    const ids = { taskId: ctx.taskId, contextId: ctx.contextId };
    bus.publish(AgentEvent.task({ id: ctx.taskId, contextId: ctx.contextId, status: { state: TaskState.TASK_STATE_SUBMITTED }, artifacts: [], history: [ctx.userMessage] }));
    await sleep(40);
    bus.publish(AgentEvent.statusUpdate({ ...ids, status: { state: TaskState.TASK_STATE_WORKING } }));
    await sleep(120);
    if (asked.includes("impossible")) {
      const message = { messageId: `m-${ctx.taskId}`, ...ids, role: Role.ROLE_AGENT, parts: [text("no seats left")], extensions: [], referenceTaskIds: [] };
      bus.publish(AgentEvent.statusUpdate({ ...ids, status: { state: TaskState.TASK_STATE_FAILED, message } }));
    } else {
      bus.publish(AgentEvent.artifactUpdate({ ...ids, artifact: { artifactId: "answer", name: "answer", parts: [text(`Booked: ${asked}`)], extensions: [] }, append: false, lastChunk: true }));
      bus.publish(AgentEvent.statusUpdate({ ...ids, status: { state: TaskState.TASK_STATE_COMPLETED } }));
    }
    bus.finished();
  }
  async cancelTask() {}
}

/** Starts the agent on 127.0.0.1 port 0: `{ card, log, close }` (`card` is the Agent Card's URL). */
export async function startA2aAgent() {
  const log = [];
  const app = express();
  const listener = await new Promise((resolve) => { const l = app.listen(0, "127.0.0.1", () => resolve(l)); });
  const base = `http://127.0.0.1:${listener.address().port}`;
  const card = {
    name: "Travel Desk", description: "Books trips", version: "1.0.0",
    supportedInterfaces: [{ url: `${base}/a2a/jsonrpc`, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "1.0" }],
    capabilities: { streaming: false, pushNotifications: false, extensions: [] },
    defaultInputModes: ["text/plain"], defaultOutputModes: ["text/plain"],
    skills: [{ id: "book-trip", name: "Book a trip", description: "Books a trip described in plain language", tags: ["travel"], examples: [], inputModes: [], outputModes: [], securityRequirements: [] }],
    securitySchemes: {}, securityRequirements: [], signatures: [],
  };
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new TravelExecutor(log));
  app.use("/.well-known/agent-card.json", agentCardHandler({ agentCardProvider: handler }));
  app.use("/a2a/jsonrpc", jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  return {
    card: `${base}/.well-known/agent-card.json`, log,
    close: () => new Promise((resolve) => { listener.closeAllConnections?.(); listener.close(() => resolve()); }),
  };
}
