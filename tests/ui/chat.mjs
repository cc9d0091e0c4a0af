// The AI SDK's chat client as @ai-sdk/react's `Chat` is made, without React: `AbstractChat`
// over a plain array state (React keeps it in component state). Shared by the Node and workerd
// tests and bundled into the test extension's page.
import { AbstractChat } from "ai";

class State {
  messages = [];
  status = "ready";
  error = undefined;
  pushMessage = (m) => { this.messages = [...this.messages, m]; };
  popMessage = () => { this.messages = this.messages.slice(0, -1); };
  replaceMessage = (i, m) => { this.messages = [...this.messages.slice(0, i), m, ...this.messages.slice(i + 1)]; };
  snapshot = (v) => structuredClone(v);
}

/** `new Chat({ transport, ... })`, as `useChat` takes them; `messages` to start from. */
export class Chat extends AbstractChat {
  constructor(init) {
    const state = new State();
    state.messages = init.messages ?? [];
    super({ ...init, state });
  }
}
