// The tools of the 2026-07-28 test server (server2026.mjs in Node, workerd/server2026-worker.mjs
// in workerd), on the official `@modelcontextprotocol/server` 2.x: tools that ask for input
// (multi round-trip requests) once, twice, in URL mode and with a form of every field type.
// `log.retries` records what each call carried. No Node imports: it is bundled for workerd too.
import { McpServer, acceptedContent, inputRequired, inputResponse } from "@modelcontextprotocol/server";
import * as z from "zod/v4";

/** A factory of the server for `createMcpHandler`; `log` is `{ retries: [] }` or more. */
export function factory(log) {
  return () => {
    const server = new McpServer({ name: "toolnexus-test-2026", version: "2.0.0" });
    server.registerTool("echo", { description: "Echoes the text", inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({
      content: [{ type: "text", text: `echo: ${text}` }],
    }));
    // Asks once who to greet (form mode); a decline or cancel is reported as the result.
    server.registerTool("greet", { description: "Greets someone it asks for", inputSchema: z.object({ greeting: z.string() }) },
      async ({ greeting }, ctx) => {
        log.retries.push({ tool: "greet", inputResponses: ctx.mcpReq.inputResponses, requestState: ctx.mcpReq.requestState?.() });
        const r = inputResponse(ctx.mcpReq.inputResponses, "who");
        if (r.kind === "elicit" && r.action === "accept") return { content: [{ type: "text", text: `${greeting}, ${r.content.name}!` }] };
        if (r.kind === "elicit") return { content: [{ type: "text", text: `no greeting: ${r.action}` }] };
        return inputRequired({
          inputRequests: { who: inputRequired.elicit({ message: "Who should I greet?", requestedSchema: z.object({ name: z.string() }) }) },
          requestState: `greet:${greeting}`,
        });
      });
    // Asks twice: a name, then (with the name in its state) a colour.
    server.registerTool("survey", { description: "Asks two questions", inputSchema: z.object({}) }, async (_args, ctx) => {
      const state = ctx.mcpReq.requestState?.();
      log.retries.push({ tool: "survey", inputResponses: ctx.mcpReq.inputResponses, requestState: state });
      const name = inputResponse(ctx.mcpReq.inputResponses, "name");
      const colour = inputResponse(ctx.mcpReq.inputResponses, "colour");
      if (colour.kind === "elicit" && colour.action === "accept" && state?.startsWith("name:")) {
        return { content: [{ type: "text", text: `${state.slice(5)} likes ${colour.content.colour}` }] };
      }
      if (name.kind === "elicit" && name.action === "accept") {
        return inputRequired({
          inputRequests: { colour: inputRequired.elicit({ message: "Favourite colour?", requestedSchema: z.object({ colour: z.string() }) }) },
          requestState: `name:${name.content.name}`,
        });
      }
      return inputRequired({ inputRequests: { name: inputRequired.elicit({ message: "Your name?", requestedSchema: z.object({ name: z.string() }) }) } });
    });
    // URL mode: the user visits a page; the retry carries only the action.
    server.registerTool("connect", { description: "Links an account", inputSchema: z.object({}) }, async (_args, ctx) => {
      const r = inputResponse(ctx.mcpReq.inputResponses, "link");
      if (r.kind === "elicit") return { content: [{ type: "text", text: `link: ${r.action}` }] };
      return inputRequired({
        inputRequests: { link: inputRequired.elicitUrl({ message: "Link your account", url: "https://auth.example.test/link?x=1" }) },
        requestState: "link-1",
      });
    });
    // Asks once with a form of every field type an elicitation may hold (the extension's panel
    // draws it); the answer is validated against the same shape, so a form that sends "3" for an
    // integer or "on" for a boolean gets an error result, not a booking.
    server.registerTool("book", { description: "Books a table", inputSchema: z.object({}) }, async (_args, ctx) => {
      log.retries.push({ tool: "book", inputResponses: ctx.mcpReq.inputResponses, requestState: ctx.mcpReq.requestState?.() });
      const r = inputResponse(ctx.mcpReq.inputResponses, "booking");
      if (r.kind === "elicit" && r.action !== "accept") return { content: [{ type: "text", text: `no booking: ${r.action}` }] };
      if (r.kind === "elicit") {
        const b = acceptedContent(ctx.mcpReq.inputResponses, "booking", BOOKING);
        if (!b) return { isError: true, content: [{ type: "text", text: `not a booking: ${JSON.stringify(r.content)}` }] };
        const extras = [b.vegetarian && "vegetarian", b.budget !== undefined && `${b.budget} € each`, b.time].filter(Boolean);
        return { content: [{ type: "text", text: `Booked ${b.guests} at the ${b.seating} for ${b.name}${extras.length ? ` (${extras.join(", ")})` : ""}` }] };
      }
      return inputRequired({ inputRequests: { booking: { method: "elicitation/create", params: { mode: "form", message: "Book a table", requestedSchema: BOOKING_FORM } } } });
    });
    return server;
  };
}

const BOOKING = z.object({
  name: z.string().min(1), guests: z.number().int().min(1).max(12), budget: z.number().min(0).optional(),
  vegetarian: z.boolean(), seating: z.enum(["window", "aisle", "bar"]), time: z.enum(["18:00", "20:00"]).optional(),
}).strict();
// As a server writes it by hand: titles, descriptions, defaults, a titled enum (oneOf) and an untitled one.
const BOOKING_FORM = {
  type: "object",
  properties: {
    name: { type: "string", title: "Your name", description: "The table is booked under it", minLength: 1 },
    guests: { type: "integer", title: "Guests", minimum: 1, maximum: 12, default: 2 },
    budget: { type: "number", title: "Budget per person", description: "In euros; leave empty for no limit", minimum: 0 },
    vegetarian: { type: "boolean", title: "Vegetarian menu", default: false },
    seating: { type: "string", title: "Seating", oneOf: [{ const: "window", title: "By the window" }, { const: "aisle", title: "Aisle" }, { const: "bar", title: "At the bar" }] },
    time: { type: "string", title: "Time", enum: ["18:00", "20:00"] },
  },
  required: ["name", "guests", "seating"],
};
