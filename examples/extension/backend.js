// The panel's backend mode. With a Workflow backend URL set on the options page (a Worker like
// examples/workflow), the agent runs there, as a Cloudflare Workflow instance, instead of in the
// service worker. The panel starts an instance and follows it: it lists the instance's open
// suspensions, shows the first (a relay call with its arguments, or an approval) and, once the
// person allows it, performs the relay call in the tab with the code the local mode uses
// (tab.js, then content.js) and sends the result as the answer, which the backend sends to the
// instance as the event it waits for. Then the instance's final text is shown.
import { perform } from "./tab.js";

/** chrome.storage.local's key for the instance being followed: `{ id, tabId }`. */
export const RUN = "backend:run";
const ENDED = ["complete", "errored", "terminated"];
const POLL_MS = 300;

/** `method route` on the backend: its JSON reply, or an error with the backend's message. */
async function api(backend, method, route, body) {
  const headers = { "content-type": "application/json" };
  if (backend.token) headers.authorization = `Bearer ${backend.token}`;
  const res = await fetch(backend.url.replace(/\/+$/, "") + route, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new Error(`the backend answered ${res.status}: ${data?.error?.message ?? res.statusText}`);
  return data;
}

/** Ends instance `id` on the backend (Stop): it parks no more and its calls are withdrawn. */
export async function stop(backend, id) {
  return api(backend, "DELETE", `/agents/${id}`);
}

/** Starts an agent instance on `prompt`; resolves to its id. */
export async function start(backend, prompt) {
  return (await api(backend, "POST", "/agents", { prompt })).id;
}

/**
 * Follows instance `id` until it ends, and resolves to its status (`{ status, output, error }`),
 * or to null once `signal` stops the following (the instance keeps waiting on the backend).
 * `ui.ask(suspension, signal)` shows a suspension and resolves to the person's decision (true:
 * allow); `ui.done(call, result)` shows what a relay call did; `ui.busy(label)` says what is going on.
 */
export async function follow(backend, id, tabId, ui, signal) {
  const answered = new Set(); // the listing may still show an answer just sent
  while (!signal.aborted) {
    const [next] = (await api(backend, "GET", `/agents/${id}/suspensions`)).filter((s) => !answered.has(s.event));
    if (!next) {
      const s = await api(backend, "GET", `/agents/${id}`);
      if (ENDED.includes(s.status)) return s;
      ui.busy("The agent is working");
      await new Promise((r) => setTimeout(r, POLL_MS));
      continue;
    }
    // One at a time, in the order the model made the calls: `type` before the `click` that sends it.
    ui.busy("Waiting for you");
    const allowed = await ui.ask(next, signal);
    if (signal.aborted) break;
    let answer = { ok: false, reason: "declined" };
    if (allowed && next.kind === "tool_call") {
      ui.busy("Acting in the tab");
      const results = [];
      for (const call of next.data.calls) {
        const r = await perform(call, tabId);
        ui.done(call, r);
        results.push({ id: call.id, ...r });
      }
      answer = { ok: true, data: { results } };
    } else if (allowed) {
      answer = { ok: true }; // an approval: the tool runs on the backend
    }
    await api(backend, "POST", `/agents/${id}/suspensions/${next.event}`, answer);
    answered.add(next.event);
  }
  return null;
}
