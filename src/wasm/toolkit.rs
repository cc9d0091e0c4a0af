//! `defineTool`, `relayTool`, and the decoded tools of the `Toolkit` class (a JS class in
//! pkg-template/toolkit.js that holds the tool objects; the object is bound to its entry in the
//! registry here). Any other toolkit is read by duck typing (`toolkit.tools`), so a plain
//! `{ tools: [...] }` object works too; the collision guard runs on construction, on `add`, and
//! again when a run reads such a toolkit.

use crate::declare;
use crate::edge::{from_js, opt_function, string_arg, to_js};
use crate::error::{Error, Result};
use crate::prelude::*;
use crate::small::{borrow, borrow_mut};
use crate::tool::{ToolSpec, Toolkit as CoreToolkit};
use core::cell::RefCell;
use js_sys::{Array, Function, Reflect};
use wasm_bindgen::prelude::*;

/// A decoded toolkit: the declarations for the core and the functions for the executor. Both
/// are shared: each run of a registered toolkit clones them.
#[derive(Clone, Default)]
pub struct Decoded {
    pub kit: CoreToolkit,
    pub fns: alloc::rc::Rc<Vec<(String, Function)>>,
}

fn decode_tool(v: &JsValue, what: &str) -> Result<(ToolSpec, Option<Function>)> {
    // Not an object (a function included): `declaration` refuses it as not a tool object. Its
    // functions cross as `true`, so the core checks every key (`execute` is refused, not lost).
    let data = match v.is_object() {
        true => {
            let text = shape_json(v);
            crate::json::parse(&text).map_err(|_| Error::bad_input(format!("{what} is not JSON data")))?
        }
        false => serde_json::Value::Null,
    };
    let spec = declare::declaration(&data, what)?;
    let run = opt_function(v, "run", what)?;
    declare::check_runnable(&spec, run.is_some())?;
    Ok((spec, run))
}

/// Decoded `Toolkit` instances by id, so a run does not re-read and re-validate every tool
/// object. An entry lives as long as its `Toolkit` (removed by `dropToolkit`). A short list,
/// not a map: hosts hold a handful of toolkits, which a scan finds as soon as a hash would.
static REGISTRY: super::Local<RefCell<Vec<(u32, Decoded)>>> = super::Local(RefCell::new(Vec::new()));

#[wasm_bindgen(module = "/src/wasm/host.js")]
extern "C" {
    /// The id a `Toolkit` object is bound to (0: none); with `bind`, binds it to a new one first.
    #[wasm_bindgen(js_name = kitId)]
    fn kit_id(toolkit: &JsValue, bind: bool) -> u32;
    /// A run's toolkit: the id of a bound `Toolkit`, else a real array copy of its tools (an
    /// array, or `{ tools }`), else `undefined`.
    #[wasm_bindgen(js_name = kitOf)]
    fn kit_of(toolkit: &JsValue) -> JsValue;
    /// A real array copy of an array; `undefined` for anything else or an array that throws.
    #[wasm_bindgen(js_name = listOf)]
    fn list_of(v: &JsValue) -> Option<Array>;
    /// An object as JSON text, its own functions as `true`; "" for what is not JSON data.
    #[wasm_bindgen(js_name = shapeJson)]
    fn shape_json(v: &JsValue) -> String;
    /// The own keys of an object whose value is not `undefined` (`[]` for an array).
    #[wasm_bindgen(js_name = keysOf, catch)]
    fn keys_of(v: &JsValue) -> core::result::Result<Array, JsValue>;
}

/// Reads a toolkit: a `Toolkit` from its registry entry (found by the object itself, so a handle
/// cannot be forged), or any `{ tools: [...] }` object or array of tools (decoded and checked each
/// time, since a plain array can change between runs).
pub fn decode(toolkit: &JsValue) -> Result<Decoded> {
    if toolkit.is_undefined() || toolkit.is_null() {
        return Ok(Decoded::default());
    }
    let kit = kit_of(toolkit);
    if let Some(id) = kit.as_f64() {
        let found = borrow(&REGISTRY.0).iter().find(|(k, _)| f64::from(*k) == id).map(|(_, d)| d.clone());
        // Bound to an id with no entry: its `free()` dropped it.
        return found.ok_or_else(|| Error::bad_input("the toolkit was freed"));
    }
    // `kitOf` gives an array or nothing (no `Array.isArray` import for this).
    match kit.is_object() {
        true => decode_list(kit.unchecked_ref()),
        false => Err(Error::bad_input("toolkit must be a Toolkit from createToolkit() or { tools: [...] }")),
    }
}

/// `list` is a real array (from `list_of`): reading it cannot throw.
fn decode_list(list: &Array) -> Result<Decoded> {
    let mut specs = Vec::with_capacity(list.length() as usize);
    let mut fns = Vec::new();
    // By index: `Array::iter` reads through an import of its own (`get_unchecked`).
    for i in 0..list.length() {
        let tool = list.get(i);
        let (spec, run) = decode_tool(&tool, &format!("tools[{i}]"))?;
        if let Some(f) = run {
            fns.push((spec.name.clone(), f));
        }
        if spec.agent.is_some() {
            agent_fns(&tool, &spec.name, &mut fns);
        }
        specs.push(spec);
    }
    Ok(Decoded { kit: CoreToolkit::new(specs)?, fns: fns.into() })
}

/// The `run` functions of an agent tool's own tools (and theirs, agents down), under the names
/// the driver asks its executor for (`agent/tool`): `agentTool` gated them and lists them as
/// `agent.runs`, `[name, run]` pairs.
fn agent_fns(agent_tool: &JsValue, prefix: &str, fns: &mut Vec<(String, Function)>) {
    let get = |o: &JsValue, k: &str| Reflect::get(o, &k.into()).unwrap_or(JsValue::UNDEFINED);
    let Some(runs) = list_of(&get(&get(agent_tool, "agent"), "runs")) else { return };
    for i in 0..runs.length() {
        let Some(pair) = list_of(&runs.get(i)) else { continue };
        if let (Some(name), Ok(f)) = (pair.get(0).as_string(), pair.get(1).dyn_into::<Function>()) {
            fns.push((format!("{prefix}/{name}"), f));
        }
    }
}

fn tool_object(spec: &ToolSpec, run: Option<&Function>) -> Result<JsValue> {
    let o = to_js(&spec.to_value())?;
    if let Some(f) = run {
        let _ = Reflect::set(&o, &"run".into(), f);
    }
    Ok(o)
}

/// `defineTool(def)` declares a host tool: `run(args, ctx)` may return a string, a `ToolResult`,
/// any JSON value, or `pending(...)` to suspend; a throw becomes an error result the model sees.
/// A missing `source` reads as native; the returned object is built anew, so it says so.
pub fn define_tool(def: &JsValue) -> Result<JsValue> {
    let (spec, f) = decode_tool(def, "defineTool")?;
    tool_object(&spec, f.as_ref())
}

/// `relayTool(name, description?, schema?)` declares a relay tool: nothing runs in-process; each
/// call surfaces to the host as a `Request` of kind `"tool_call"` (to `waitFor`, or as a durable
/// `status: "pending"` halt).
pub fn relay_tool(name: &JsValue, description: &JsValue, schema: &JsValue) -> Result<JsValue> {
    let name = string_arg(name, false, "relayTool: name must be a string")?.unwrap_or_default();
    let description = string_arg(description, true, "relayTool: description must be a string")?;
    tool_object(&declare::relay(name, description, from_js(schema, "schema")?)?, None)
}

/// `toolkitId(list, toolkit, options)` decodes a `Toolkit`'s tool objects (its constructor and `add` in
/// toolkit.js) and keeps them for runs of that toolkit object to find; returns their id. A refusal
/// keeps nothing.
pub fn toolkit_id(list: &JsValue, toolkit: &JsValue, options: &JsValue) -> Result<u32> {
    // `createToolkit({ tools, ... })`: its other keys are refused (an array has none).
    let given = keys_of(options).map_err(|e| Error::bad_input(crate::edge::thrown_message(&e)))?;
    crate::options::check_toolkit_keys(&crate::edge::strings(&given))?;
    let list = list_of(list).filter(|_| toolkit.is_object());
    let decoded = decode_list(&list.ok_or_else(|| Error::bad_input("createToolkit needs { tools: [...] } or an array of tools"))?)?;
    let id = kit_id(toolkit, true);
    forget(id);
    borrow_mut(&REGISTRY.0).push((id, decoded));
    Ok(id)
}

/// `dropToolkit(id)` forgets a `Toolkit`'s decoded tools (its `free()`, or the finalizer once it
/// is collected).
pub fn drop_toolkit(id: &JsValue) -> JsValue {
    forget(id.as_f64().unwrap_or_default() as u32);
    JsValue::UNDEFINED
}

fn forget(id: u32) {
    borrow_mut(&REGISTRY.0).retain(|(k, _)| *k != id);
}
