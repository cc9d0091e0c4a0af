//! The wasm edge: decode JS values, call the core, encode results, map errors to JS `Error`s
//! with a stable `code`. Nothing here decides loop behaviour. No `unwrap` or `expect`: a panic
//! would trap and poison the instance, so every failure is a typed error.
//!
//! Three exports: `createClient`, the client's `op` (client.rs) and `op` here, which serves
//! every function of the API that holds no state. pkg-template/api.js gives each kind its name:
//! an export of its own would be glue JS and a wasm shim each.

use crate::prelude::*;
mod client;
// The conversions and host.js bindings both entries' edges share, by the name this edge's files
// use for them.
mod host;
mod stream;
mod toolkit;

pub use client::{create_client, Client};
pub use stream::EventStream;
pub use toolkit::{define_tool, drop_toolkit, relay_tool, toolkit_id};

use crate::conversation;
use crate::edge::{from_js, js_error, string_arg, to_js, JsResult};
use crate::error::{Error, Result};
use crate::ops::FnOp;
use crate::suspend::{self, IdGen};
use alloc::rc::Rc;
use wasm_bindgen::prelude::*;

// The data shapes, written once in TypeScript and pulled into the generated .d.ts.
#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = include_str!("types.d.ts");

/// A static of the edge. This wasm runs on one thread (the crate's allocator is built for no
/// other kind of module), so a static needs no lock. `thread_local!` would do the same with its
/// lazy initialisation and access-error paths (docs/decisions/small-std.md).
pub(crate) struct Local<T>(pub T);

// SAFETY: without the atomics feature a wasm module has one thread, so no value is ever seen
// from two. (With it, `Local` is not `Sync` and a static of it does not compile.)
#[cfg(not(target_feature = "atomics"))]
unsafe impl<T> Sync for Local<T> {}

static IDS: Local<core::cell::OnceCell<Rc<IdGen>>> = Local(core::cell::OnceCell::new());

pub(crate) fn ids() -> Rc<IdGen> {
    IDS.0.get_or_init(|| Rc::new(IdGen::new(Box::new(|| js_sys::Date::now() as u64)))).clone()
}

/// The functions of the API that hold no state, by kind (`FnOp`, named in pkg-template/api.js and
/// typed in pkg-template/index.d.ts): the suspension helpers (their rules: `crate::suspend`),
/// `checkRevision(stored, state)`, `defineTool(def)`, `relayTool(name, description?, schema?)`,
/// `toolkitId(list, toolkit)` and `dropToolkit(id)`.
#[wasm_bindgen(skip_typescript)]
pub fn op(kind: u8, a: JsValue, b: JsValue, c: JsValue) -> JsResult<JsValue> {
    // A suspension as the core reads it: its JSON data, `None` for a value that is not an object.
    let request = |what| a.is_object().then(|| from_js(&a, what)).transpose();
    let run = || -> Result<JsValue> {
        let Some(kind) = FnOp::of(kind) else { return Err(Error::internal("no such operation")) };
        // The kinds that answer with JSON data make it here and cross once, below.
        let data = match kind {
            FnOp::Pending => suspend::pending_of(request("pending(request)")?.as_ref(), &ids())?,
            FnOp::AuthRequired => {
                let prompt = string_arg(&b, true, "authRequired: prompt must be a string")?;
                let url = string_arg(&a, false, "authRequired: url must be a string")?.unwrap_or_default();
                suspend::pending_result(suspend::auth_required(&url, prompt.as_deref()), &ids()).to_value()
            }
            FnOp::IsRelayRequest => return Ok(request("request").is_ok_and(|r| suspend::is_relay_request(r.as_ref())).into()),
            FnOp::RelayCallsOf => suspend::relay_calls_of(request("request")?.as_ref())?,
            FnOp::RelayAnswer => {
                let id = string_arg(
                    &a,
                    false,
                    "relayAnswer: requestId must be a string (the suspension's id: relayAnswer(pending.id, results))",
                )?
                .unwrap_or_default();
                suspend::relay_answer_of(&id, &from_js(&b, "results")?)?
            }
            FnOp::CheckRevision => return check_revision(&a, &b).map(|_| JsValue::UNDEFINED),
            FnOp::DeclareTool => return define_tool(&a),
            FnOp::RelayTool => return relay_tool(&a, &b, &c),
            FnOp::ToolkitId => return toolkit_id(&a, &b, &c).map(JsValue::from),
            FnOp::DropToolkit => return Ok(drop_toolkit(&a)),
        };
        to_js(&data)
    };
    run().map_err(js_error)
}

/// `checkRevision(stored, state)`: the revision rule, for a store to apply inside its own atomic
/// read-check-write (the stores in `stores.js` use it, so the rule is written once, in the core).
/// `stored` is what the store holds (`undefined` or `null` for nothing). A `conflict` error when
/// `state` is not exactly the next revision of `stored`.
pub fn check_revision(stored: &JsValue, state: &JsValue) -> Result<()> {
    let revision = |v: &JsValue| conversation::revision_of(crate::edge::get(v, "revision").as_f64());
    let stored = (!stored.is_undefined() && !stored.is_null()).then(|| revision(stored));
    conversation::check_revision(stored, revision(state))
}
