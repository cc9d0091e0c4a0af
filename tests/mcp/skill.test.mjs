// Skills as data: the `skill` tool loads one on demand in a run, its catalog goes in the system
// prompt, and the definitions (plain data) rebuild the same tool after a restart.
import test from "node:test";
import assert from "node:assert/strict";
import { createClient, createToolkit } from "toolnexus-wasm";
import { skillTool } from "toolnexus-wasm/mcp";
import { scriptedFetch } from "../../demo/scripted-logic.mjs";

const SKILLS = [
  { name: "gift-wrap", description: "Wrap an order as a gift", body: "1. Add paper.\n2. Add a note.", resources: ["notes/card.md"] },
  { name: "refunds", body: "Refund within 30 days." },
];

test("the skill tool in a run: the catalog in the system prompt, the skill loaded on demand", async () => {
  const skill = skillTool(SKILLS);
  assert.equal(skill.name, "skill");
  assert.equal(skill.source, "skill");
  assert.match(skill.prompt, /## Available Skills\n- \*\*gift-wrap\*\*: Wrap an order as a gift$/);
  const bodies = [];
  const model = scriptedFetch({ wrap: [{ calls: [["skill", { name: "gift-wrap" }]] }, { text: "Loaded: {{results}}" }] });
  const fetch = async (url, init) => { bodies.push(JSON.parse(init.body)); return model(url, init); };
  const client = createClient({ baseUrl: "http://model.test/v1", style: "openai", model: "scripted", apiKey: "k", systemPrompt: skill.prompt, fetch });
  const r = await client.run("#wrap", { toolkit: createToolkit({ tools: [skill] }) });
  assert.equal(bodies[0].messages[0].content, skill.prompt);
  assert.match(r.text, /^Loaded: skill → <skill_content name="gift-wrap">\n# Skill: gift-wrap\n\n1\. Add paper\.\n2\. Add a note\./);
  assert.match(r.text, /<skill_files>\n<file>notes\/card\.md<\/file>\n<\/skill_files>\n<\/skill_content>$/);
});

test("unknown skills, filters and rebuilding from data", () => {
  const skill = skillTool(JSON.parse(JSON.stringify(SKILLS)), { filter: { refunds: false } });
  assert.deepEqual(skill.run({ name: "refunds" }), { output: 'Skill "refunds" not found. Available skills: gift-wrap', isError: true });
  assert.equal(skill.run({ name: "gift-wrap" }).metadata.dir, "skill://gift-wrap/");
  assert.throws(() => skillTool([{ body: "x" }]), { code: "bad_input", message: "skillTool(skills)[0].name is required (a non-empty string)" });
});
