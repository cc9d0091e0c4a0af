//! `defineTool`, `relayTool`, and the decoded tools of the `Toolkit` class (a JS class in
//! pkg-template/api.js, which holds the tool objects and an id into the registry here). A toolkit is read by
//! duck typing (`toolkit.tools`), so a plain `{ tools: [...] }` object works too; the
//! collision guard runs on construction, on `add`, and again when a run reads the toolkit.

use super::convert::{from_js, get, js_error, opt_function, JsResult};
use crate::declare;
use crate::error::{Error, Result};
use crate::tool::{ToolSpec, Toolkit as CoreToolkit};
use js_sys::{Array, Function, Reflect};
use std::cell::{Cell, RefCell};
use wasm_bindgen::prelude::*;

/// A decoded toolkit: the declarations for the core and the functions for the executor.
#[derive(Clone)]
pub struct Decoded {
    pub kit: CoreToolkit,
    pub fns: Vec<(String, Function)>,
}

fn decode_tool(v: &JsValue, i: usize) -> Result<(ToolSpec, Option<Function>)> {
    let what = format!("tools[{i}]");
    // Not an object (a function included): `declaration` refuses it as not a tool object.
    let data = if v.is_object() { from_js(v, &what)? } else { serde_json::Value::Null };
    let spec = declare::declaration(&data, &what)?;
    let run = opt_function(v, "run", &what)?;
    declare::check_runnable(&spec, run.is_some())?;
    Ok((spec, run))
}

thread_local! {
    /// Decoded `Toolkit` instances by id, so a run does not re-read and re-validate every tool
    /// object. An entry lives as long as its `Toolkit` (removed in `Drop`).
    static REGISTRY: RefCell<Vec<(u32, Decoded)>> = const { RefCell::new(Vec::new()) };
    static NEXT_ID: Cell<u32> = const { Cell::new(1) };
}

/// A short list, not a map: hosts hold a handful of toolkits, and a map's hashing code would
/// cost more wasm bytes than the lookups ever save.
fn registry_set(id: u32, decoded: Decoded) {
    drop_toolkit(id);
    REGISTRY.with(|r| r.borrow_mut().push((id, decoded)));
}

const ID_KEY: &str = "__toolnexusToolkit";

/// Reads a toolkit: a `Toolkit` from its registry entry, or any object with a `tools` array
/// (decoded and checked each time, since a plain array can change between runs).
pub fn decode(toolkit: &JsValue) -> Result<Decoded> {
    if toolkit.is_undefined() || toolkit.is_null() {
        return Ok(Decoded { kit: CoreToolkit::default(), fns: Vec::new() });
    }
    if let Some(id) = get(toolkit, ID_KEY).as_f64() {
        if let Some(d) = REGISTRY.with(|r| r.borrow().iter().find(|(k, _)| *k == id as u32).map(|(_, d)| d.clone())) {
            return Ok(d);
        }
    }
    let tools = get(toolkit, "tools");
    let list = if Array::is_array(&tools) {
        tools.unchecked_into()
    } else if Array::is_array(toolkit) {
        toolkit.clone().unchecked_into()
    } else {
        return Err(Error::bad_input("toolkit must be a Toolkit from createToolkit() or { tools: [...] }"));
    };
    decode_list(&list)
}

fn decode_list(list: &Array) -> Result<Decoded> {
    let mut specs = Vec::with_capacity(list.length() as usize);
    let mut fns = Vec::new();
    for (i, v) in list.iter().enumerate() {
        let (spec, run) = decode_tool(&v, i)?;
        if let Some(f) = run {
            fns.push((spec.name.clone(), f));
        }
        specs.push(spec);
    }
    Ok(Decoded { kit: CoreToolkit::new(specs)?, fns })
}

fn tool_object(spec: &ToolSpec, run: Option<&Function>) -> Result<JsValue> {
    let o = super::convert::to_js(&spec.to_value())?;
    if let Some(f) = run {
        let _ = Reflect::set(&o, &"run".into(), f);
    }
    Ok(o)
}

/// Declares a host tool: `run(args, ctx)` may return a string, a `ToolResult`, any JSON value,
/// or `pending(...)` to suspend; a throw becomes an error result the model sees.
#[wasm_bindgen(js_name = defineTool, unchecked_return_type = "Tool")]
pub fn define_tool(#[wasm_bindgen(unchecked_param_type = "ToolDefinition")] def: JsValue) -> JsResult<JsValue> {
    // A missing `source` reads as native; the returned object is built anew, so it says so.
    let run = || -> Result<JsValue> {
        let (spec, f) = decode_tool(&def, 0)?;
        tool_object(&spec, f.as_ref())
    };
    run().map_err(js_error)
}

/// Declares a relay tool: nothing runs in-process; each call surfaces to the host as a
/// `Request` of kind `"tool_call"` (to `waitFor`, or as a durable `status: "pending"` halt).
// skip_typescript: an optional trailing JsValue cannot be expressed; types.d.ts declares it.
#[wasm_bindgen(js_name = relayTool, skip_typescript)]
pub fn relay_tool(name: String, description: Option<String>, schema: JsValue) -> JsResult<JsValue> {
    let run = || tool_object(&declare::relay(name, description, from_js(&schema, "schema")?)?, None);
    run().map_err(js_error)
}

/// Decodes a `Toolkit`'s tool objects (`createToolkit`, `Toolkit.add` in api.js) and keeps
/// them under `id` (a new id when 0) for runs to find; returns the id. A refusal keeps nothing.
#[wasm_bindgen(js_name = toolkitId, skip_typescript)]
pub fn toolkit_id(list: JsValue, id: u32) -> JsResult<u32> {
    if !Array::is_array(&list) {
        return Err(js_error(Error::bad_input("createToolkit needs { tools: [...] } or an array of tools")));
    }
    let decoded = decode_list(list.unchecked_ref()).map_err(js_error)?;
    let id = if id != 0 {
        id
    } else {
        NEXT_ID.with(|n| {
            let id = n.get();
            n.set(id.wrapping_add(1).max(1));
            id
        })
    };
    registry_set(id, decoded);
    Ok(id)
}

/// Forgets a `Toolkit`'s decoded tools (its `free()`, or the finalizer once it is collected).
#[wasm_bindgen(js_name = dropToolkit, skip_typescript)]
pub fn drop_toolkit(id: u32) {
    REGISTRY.with(|r| r.borrow_mut().retain(|(k, _)| *k != id));
}
