// @ts-check
// Approval gating (`needsApproval`): suspension policy, applied to a tool before the core sees it.
// `needsApproval` (true, or a function of the arguments and `{ name, signal }`; anything but
// `false` from it asks): the tool's `run`, gated. Asking is the one suspension primitive, built
// here as `pending()`'s result: `{ kind: "approval", data: { name, arguments } }` (`name` as
// declared, which is the name the model calls). Its answer, `ok`, runs the tool; a refusal
// ends the call `declined/expired: …` in the core and the tool never runs. Ids carry a digest of
// the name and arguments: `approval:<digest>:<nonce>` for the approval, and the tool's own later
// suspensions leave as `approved:<digest>:<id>` (their id given back in `ctx.answer`). Any other
// answer (a `beforeTool` suspension's, one a resume handed to another call, an approval of other
// arguments) asks again instead of running. Applied by `defineTool` and `Toolkit` (declarations.js, toolkit.js) and
// to a run's plain tool list; the gated tool has no `needsApproval` left, so gating twice is
// gating once. Any other value (`"true"`, a relay tool's `needsApproval`) is left on the tool
// for the core to refuse with the reason (src/declare.rs). See docs/decisions/loop.md ("Approvals") and
// docs/decisions/options-and-errors.md.
export function gate(tool) {
  let need, run, name;
  try {
    ({ needsApproval: need, run, name } = tool);
  } catch {}
  if (!(need === true || typeof need == "function") || typeof run != "function") return tool;
  const prompt = "approval to run " + name;
  return {
    ...tool,
    needsApproval: undefined,
    async run(args, ctx) {
      const { answer, ...rest } = ctx ?? {};
      const id = "" + answer?.id;
      let h = 0;
      for (const c of name + JSON.stringify(args)) h = (Math.imul(h, 31) + c.charCodeAt(0)) | 0;
      const own = `approved:${h}:`, ask = `approval:${h}:`;
      if (id.startsWith(own)) rest.answer = { ...answer, id: id.slice(own.length) };
      else if (!(answer?.ok && id.startsWith(ask)) && (typeof need != "function" || (await need(args, { name, signal: rest.signal })) !== false)) {
        const pending = { id: ask + Math.random().toString(36).slice(2), kind: "approval", prompt, data: { name, arguments: args } };
        return { output: prompt, isError: true, metadata: { pending } };
      }
      const v = await run(args, rest);
      const p = v?.metadata?.pending;
      return p?.id ? { ...v, metadata: { ...v.metadata, pending: { ...p, id: own + p.id } } } : v;
    },
  };
}
