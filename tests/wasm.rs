//! The JS API inside real JS hosts: Node and headless Chromium (wasm-bindgen-test), with real
//! `fetch` to the scripted model on 127.0.0.1 (started by scripts/test.sh). The same file runs in
//! both hosts; scripts/test.sh fails if the browser run reports fewer tests than this file has.
#![cfg(target_arch = "wasm32")]

use js_sys::{Array, Function, JsString, Object, Promise, Reflect, JSON};
use toolnexus_wasm::ops::{ClientOp, FnOp};
use toolnexus_wasm::wasm::{create_client, define_tool, op, relay_tool, toolkit_id, Client, EventStream};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

const STUB: &str = match option_env!("TOOLNEXUS_STUB_URL") {
    Some(s) => s,
    None => "http://127.0.0.1:18411",
};

fn obj(pairs: &[(&str, JsValue)]) -> JsValue {
    let o = Object::new();
    for (k, v) in pairs {
        Reflect::set(&o, &(*k).into(), v).unwrap();
    }
    o.into()
}

fn get(v: &JsValue, path: &str) -> JsValue {
    path.split('.').fold(v.clone(), |acc, k| Reflect::get(&acc, &k.into()).unwrap())
}

/// A client method as pkg-template/api.js (outside what this runner loads) defines it: one kind
/// of `Client::op`.
fn call(c: &Client, kind: ClientOp, a: impl Into<JsValue>, b: JsValue) -> Promise {
    c.op(kind as u8, a.into(), b, JsValue::UNDEFINED).unchecked_into()
}

/// `relayCallsOf` and `relayAnswer` as pkg-template/api.js defines them: kinds of `wasm::op`.
fn relay_calls_of(req: &JsValue) -> Result<JsValue, JsValue> {
    op(FnOp::RelayCallsOf as u8, req.clone(), JsValue::UNDEFINED, JsValue::UNDEFINED)
}

fn relay_answer(id: &JsValue, results: &JsValue) -> Result<JsValue, JsValue> {
    op(FnOp::RelayAnswer as u8, id.clone(), results.clone(), JsValue::UNDEFINED)
}

fn client(style: &str, extra: &[(&str, JsValue)]) -> Client {
    let base = if style == "openai" { format!("{STUB}/v1") } else { STUB.to_string() };
    let mut pairs = vec![("baseUrl", base.into()), ("style", style.into()), ("model", "scripted".into()), ("apiKey", "test-key".into())];
    pairs.extend(extra.iter().cloned());
    create_client(obj(&pairs), map_store()).unwrap()
}

fn toolkit() -> JsValue {
    let price = Closure::<dyn Fn(JsValue) -> JsValue>::new(|_args: JsValue| JsValue::from_str("$12.50"));
    let f: Function = price.into_js_value().unchecked_into();
    let lookup = define_tool(&obj(&[("name", "lookup_price".into()), ("description", "price".into()), ("run", f.into())])).unwrap();
    let click = relay_tool(&"click".into(), &"click in the tab".into(), &JsValue::UNDEFINED).unwrap();
    // What `createToolkit` (pkg-template/api.js, outside what this runner loads) hands a run:
    // an object holding the tools, bound to their decoded copy in the wasm.
    let tools: JsValue = Array::of2(&lookup, &click).into();
    let kit = obj(&[("tools", tools.clone())]);
    toolkit_id(&tools, &kit, &JsValue::UNDEFINED).unwrap();
    kit
}

async fn await_promise(p: Promise) -> Result<JsValue, JsValue> {
    JsFuture::from(p).await
}

#[wasm_bindgen_test]
async fn a_plain_run_fetches_the_local_model_in_both_styles() {
    for style in ["openai", "anthropic"] {
        let c = client(style, &[]);
        let r = await_promise(call(&c, ClientOp::Run, "#hello", obj(&[]))).await.unwrap();
        assert_eq!(get(&r, "status"), "done");
        assert_eq!(get(&r, "text"), "Hello from the scripted model.");
        assert_eq!(get(&r, "style"), style);
    }
}

/// waitFor hands back a Promise the "host" resolves on a later macrotask, like a content script.
#[wasm_bindgen_test]
async fn three_relay_calls_resolve_through_concurrent_waitfor_promises() {
    let seen = std::rc::Rc::new(std::cell::Cell::new(0u32));
    let s = seen.clone();
    let wait = Closure::<dyn Fn(JsValue) -> Promise>::new(move |req: JsValue| {
        s.set(s.get() + 1);
        let calls = relay_calls_of(&req).unwrap();
        let call = Array::from(&calls).get(0);
        let id = get(&call, "id");
        let output = format!("clicked {}", get(&call, "input.selector").as_string().unwrap());
        let results = Array::of1(&obj(&[("id", id), ("output", output.into())]));
        let answer = relay_answer(&get(&req, "id"), &results.into()).unwrap();
        Promise::new(&mut |resolve, _| {
            let global = js_sys::global();
            let set_timeout: Function = Reflect::get(&global, &"setTimeout".into()).unwrap().unchecked_into();
            let bound = resolve.bind1(&JsValue::UNDEFINED, &answer);
            set_timeout.call2(&global, &bound, &JsValue::from(5)).unwrap();
        })
    });
    let c = client("openai", &[("waitFor", wait.into_js_value())]);
    let r = await_promise(call(&c, ClientOp::Run, "#three-clicks", obj(&[("toolkit", toolkit())]))).await.unwrap();
    assert_eq!(get(&r, "status"), "done");
    assert_eq!(seen.get(), 3);
    assert_eq!(get(&r, "text"), "Clicked: click → clicked #a; click → clicked #b; click → clicked #c");
}

#[wasm_bindgen_test]
async fn a_durable_halt_survives_json_and_resumes_in_a_new_client() {
    let c = client("anthropic", &[]);
    let halted = await_promise(call(&c, ClientOp::Run, "#mixed", obj(&[("toolkit", toolkit())]))).await.unwrap();
    assert_eq!(get(&halted, "status"), "pending");
    let text: JsString = JSON::stringify(&halted).unwrap();
    assert!(!String::from(text.clone()).contains("test-key"), "no key in state");
    let state = JSON::parse(&String::from(text)).unwrap();
    let pending_id = get(&state, "pending.id").as_string().unwrap();
    let call_id = get(&Array::from(&get(&state, "pending.data.calls")).get(0), "id");
    let answer =
        relay_answer(&pending_id.as_str().into(), &Array::of1(&obj(&[("id", call_id), ("output", "bought".into())])).into()).unwrap();
    let fresh = client("anthropic", &[]);
    let r = await_promise(call(
        &fresh,
        ClientOp::RunWithAnswer,
        obj(&[("toolkit", toolkit()), ("state", state), ("answer", answer)]),
        JsValue::UNDEFINED,
    ))
    .await
    .unwrap();
    assert_eq!(get(&r, "status"), "done");
    assert_eq!(get(&r, "text"), "Summary: lookup_price → $12.50; click → bought");
}

async fn error_code(p: Promise) -> String {
    let e = await_promise(p).await.expect_err("expected a rejection");
    assert!(e.is_instance_of::<js_sys::Error>(), "a real Error");
    get(&e, "code").as_string().unwrap()
}

#[wasm_bindgen_test]
async fn failures_reject_with_errors_that_carry_a_code() {
    // The scripted model refuses a request without a key, as a real provider does.
    let keyless = create_client(
        obj(&[("baseUrl", format!("{STUB}/v1").into()), ("style", "openai".into()), ("model", "m".into())]),
        JsValue::UNDEFINED,
    )
    .unwrap();
    assert_eq!(error_code(call(&keyless, ClientOp::Run, "#hello", obj(&[]))).await, "provider_http");
    // Nothing listens on port 9: fetch itself fails.
    let dead = create_client(
        obj(&[("baseUrl", "http://127.0.0.1:9".into()), ("style", "openai".into()), ("model", "m".into())]),
        JsValue::UNDEFINED,
    )
    .unwrap();
    assert_eq!(error_code(call(&dead, ClientOp::Run, "x", obj(&[]))).await, "transport");
    // Resume with an answer that does not echo the request id.
    let c = client("openai", &[]);
    let halted = await_promise(call(&c, ClientOp::Run, "#mixed", obj(&[("toolkit", toolkit())]))).await.unwrap();
    let wrong = obj(&[("id", "other".into()), ("ok", true.into())]);
    assert_eq!(
        error_code(call(
            &c,
            ClientOp::RunWithAnswer,
            obj(&[("toolkit", toolkit()), ("state", halted), ("answer", wrong)]),
            JsValue::UNDEFINED
        ))
        .await,
        "answer_mismatch"
    );
    // Bad options are synchronous throws with a code.
    let e = create_client(obj(&[("style", "gemini-ish".into())]), JsValue::UNDEFINED).err().unwrap();
    assert_eq!(get(&e, "code"), "bad_input");
    let bash = relay_tool(&"bash".into(), &JsValue::UNDEFINED, &JsValue::UNDEFINED).unwrap();
    let e = toolkit_id(&Array::of1(&bash).into(), &Object::new().into(), &JsValue::UNDEFINED).err().unwrap();
    assert_eq!(e.code(), "relay_collision");
}

/// A store over a JS `Map`, as a host would write one (the entries' default, `memoryStore()`, is
/// JS in pkg-template/api.js, outside what this runner loads).
fn map_store() -> JsValue {
    let m = js_sys::Map::new();
    let (m1, m2, m3) = (m.clone(), m.clone(), m);
    let get = Closure::<dyn Fn(JsValue) -> Promise>::new(move |id: JsValue| Promise::resolve(&m1.get(&id)));
    let save = Closure::<dyn Fn(JsValue, JsValue) -> Promise>::new(move |id: JsValue, s: JsValue| {
        let copy = js_sys::JSON::parse(&String::from(js_sys::JSON::stringify(&s).unwrap())).unwrap();
        m2.set(&id, &copy);
        Promise::resolve(&JsValue::UNDEFINED)
    });
    let delete = Closure::<dyn Fn(JsValue) -> Promise>::new(move |id: JsValue| {
        m3.delete(&id);
        Promise::resolve(&JsValue::UNDEFINED)
    });
    obj(&[("get", get.into_js_value()), ("save", save.into_js_value()), ("delete", delete.into_js_value())])
}

/// `store.get(id)` on a store held as the JS value the client sees.
fn store_get(store: &JsValue, id: &str) -> Promise {
    let f: Function = get(store, "get").unchecked_into();
    Promise::resolve(&f.call1(store, &id.into()).unwrap())
}

/// Drains an EventStream through its `next()` (what `for await` calls).
async fn drain(stream: EventStream) -> Result<Vec<JsValue>, JsValue> {
    let mut out = Vec::new();
    loop {
        let step = JsFuture::from(stream.next()).await?;
        if get(&step, "done").as_bool() == Some(true) {
            return Ok(out);
        }
        out.push(get(&step, "value"));
    }
}

/// `client.stream(prompt, opts)` as pkg-template/api.js makes it (kind 4 of `Client::op`, fed
/// into a stream ended when its promise settles), drained.
async fn drain_stream(c: &Client, prompt: &str, opts: JsValue) -> Result<Vec<JsValue>, JsValue> {
    let stream = EventStream::new();
    let run: Promise = c.op(ClientOp::Stream as u8, prompt.into(), opts, stream.clone()).unchecked_into();
    let end: EventStream = stream.clone().unchecked_into();
    wasm_bindgen_futures::spawn_local(async move { end.end(&JsFuture::from(run).await.err().unwrap_or(JsValue::UNDEFINED)) });
    drain(stream).await
}

#[wasm_bindgen_test]
async fn streaming_over_real_fetch_bodies_in_both_styles() {
    for style in ["openai", "anthropic"] {
        let c = client(style, &[]);
        let events = drain_stream(&c, "#hello", obj(&[])).await.unwrap();
        let text: String = events.iter().filter(|e| get(e, "type") == "text").map(|e| get(e, "delta").as_string().unwrap()).collect();
        assert_eq!(text, "Hello from the scripted model.", "{style}");
        assert!(events.len() > 4, "the text arrived in pieces");
        let last = events.last().unwrap();
        assert_eq!(get(last, "type"), "done");
        assert_eq!(get(last, "result.text"), "Hello from the scripted model.");
    }
}

#[wasm_bindgen_test]
async fn ask_halts_into_the_store_and_ask_with_answer_resumes_then_discard_drops_it() {
    for style in ["openai", "anthropic"] {
        let store = map_store();
        let c = client(style, &[("store", store.clone())]);
        let halted = await_promise(call(&c, ClientOp::Ask, "#mixed", obj(&[("toolkit", toolkit()), ("id", "w1".into())]))).await.unwrap();
        assert_eq!(get(&halted, "status"), "pending");
        // a new client over the same store: the pending request comes from the store
        let fresh = client(style, &[("store", store.clone())]);
        let stored = await_promise(store_get(&store, "w1")).await.unwrap();
        let call_id = get(&Array::from(&get(&stored, "pending.data.calls")).get(0), "id");
        let answer =
            relay_answer(&get(&stored, "pending.id"), &Array::of1(&obj(&[("id", call_id), ("output", "ok".into())])).into()).unwrap();
        let done = await_promise(call(
            &fresh,
            ClientOp::AskWithAnswer,
            obj(&[("toolkit", toolkit()), ("id", "w1".into()), ("answer", answer)]),
            JsValue::UNDEFINED,
        ))
        .await
        .unwrap();
        assert_eq!(get(&done, "status"), "done", "{style}");
        assert_eq!(get(&done, "text"), "Summary: lookup_price → $12.50; click → ok");
        await_promise(call(&fresh, ClientOp::Discard, "w1", JsValue::UNDEFINED)).await.unwrap();
        let gone = await_promise(store_get(&store, "w1")).await.unwrap();
        assert!(gone.is_undefined());
    }
}

/// An abort reaches a relay call parked in `waitFor` (a Promise nobody will resolve).
#[wasm_bindgen_test]
async fn an_abort_signal_reaches_a_parked_relay_wait() {
    let ctor: Function = Reflect::get(&js_sys::global(), &"AbortController".into()).unwrap().unchecked_into();
    let controller = Reflect::construct(&ctor, &Array::new()).unwrap();
    let signal = get(&controller, "signal");
    let abort: Function = get(&controller, "abort").unchecked_into();
    let parked = Closure::<dyn Fn(JsValue) -> Promise>::new(move |_req: JsValue| {
        let global = js_sys::global();
        let set_timeout: Function = Reflect::get(&global, &"setTimeout".into()).unwrap().unchecked_into();
        set_timeout.call2(&global, &abort.bind0(&controller), &JsValue::from(20)).unwrap();
        Promise::new(&mut |_, _| {}) // never settles
    });
    let c = client("anthropic", &[("waitFor", parked.into_js_value())]);
    let code = error_code(call(&c, ClientOp::Run, "#three-clicks", obj(&[("toolkit", toolkit()), ("signal", signal)]))).await;
    assert_eq!(code, "aborted");
    // and timeoutMs does the same. Node exits when only unref'd timers (AbortSignal.timeout's)
    // are left, so the test keeps one ordinary timer alive meanwhile.
    let global = js_sys::global();
    let set_timeout: Function = Reflect::get(&global, &"setTimeout".into()).unwrap().unchecked_into();
    let noop = Reflect::get(&global, &"Boolean".into()).unwrap(); // any harmless function
    set_timeout.call2(&global, &noop, &JsValue::from(1000)).unwrap();
    let never = Closure::<dyn Fn(JsValue) -> Promise>::new(|_req: JsValue| Promise::new(&mut |_, _| {}));
    let c = client("openai", &[("waitFor", never.into_js_value()), ("timeoutMs", JsValue::from(50))]);
    let e = await_promise(call(&c, ClientOp::Run, "#three-clicks", obj(&[("toolkit", toolkit())]))).await.unwrap_err();
    assert_eq!(get(&e, "code"), "aborted");
    assert_eq!(get(&e, "message"), "run timeout after 50ms");
}

/// Retries, hooks and metrics in this host: the first fetch answers 503 (Retry-After: 0), a
/// beforeTool hook short-circuits one tool, afterLLM sees every reply, metrics() counts it all.
#[wasm_bindgen_test]
async fn retries_hooks_and_metrics_work_in_this_host() {
    let attempts = std::rc::Rc::new(std::cell::Cell::new(0u32));
    let a = attempts.clone();
    let flaky = Closure::<dyn Fn(JsValue, JsValue) -> JsValue>::new(move |url: JsValue, init: JsValue| {
        a.set(a.get() + 1);
        let global = js_sys::global();
        if a.get() == 1 {
            let response: Function = Reflect::get(&global, &"Response".into()).unwrap().unchecked_into();
            let headers = obj(&[("retry-after", "0".into())]);
            let r = Reflect::construct(
                &response,
                &Array::of2(&"overloaded".into(), &obj(&[("status", JsValue::from(503)), ("headers", headers)])),
            )
            .unwrap();
            return Promise::resolve(&r).into();
        }
        let fetch: Function = Reflect::get(&global, &"fetch".into()).unwrap().unchecked_into();
        fetch.call2(&global, &url, &init).unwrap()
    });
    let seen_llm = std::rc::Rc::new(std::cell::Cell::new(0u32));
    let s = seen_llm.clone();
    let after_llm = Closure::<dyn Fn(JsValue) -> JsValue>::new(move |_ctx: JsValue| {
        s.set(s.get() + 1);
        JsValue::UNDEFINED
    });
    let before_tool = Closure::<dyn Fn(JsValue) -> JsValue>::new(|ctx: JsValue| {
        if get(&ctx, "name") == "lookup_price" {
            obj(&[("result", "hooked price".into())])
        } else {
            JsValue::UNDEFINED
        }
    });
    let answer_all = Closure::<dyn Fn(JsValue) -> JsValue>::new(|req: JsValue| {
        let calls = Array::from(&relay_calls_of(&req).unwrap());
        let results = Array::new();
        for c in calls.iter() {
            results.push(&obj(&[("id", get(&c, "id")), ("output", "clicked".into())]));
        }
        relay_answer(&get(&req, "id"), &results.into()).unwrap()
    });
    let hooks = obj(&[("afterLLM", after_llm.into_js_value()), ("beforeTool", before_tool.into_js_value())]);
    // `metrics()`'s text is the JS client's (tests/js/metrics.test.mjs): here, the events reach `onMetric`.
    let events = std::rc::Rc::new(std::cell::RefCell::new(Vec::<String>::new()));
    let ev = events.clone();
    let on_metric = Closure::<dyn Fn(JsValue)>::new(move |e: JsValue| {
        let text = |k: &str| get(&e, k).as_string().unwrap_or_default();
        let kind = text("event");
        let label = if kind == "tool" { format!("{}/{}", text("tool"), text("source")) } else { text("model") };
        ev.borrow_mut().push(format!("{kind}:{label}"));
    });
    let c = client(
        "openai",
        &[
            ("fetch", flaky.into_js_value()),
            ("hooks", hooks),
            ("waitFor", answer_all.into_js_value()),
            ("retryBaseMs", JsValue::from(1)),
            ("onMetric", on_metric.into_js_value()),
        ],
    );
    let r = await_promise(call(&c, ClientOp::Run, "#mixed", obj(&[("toolkit", toolkit())]))).await.unwrap();
    assert_eq!(get(&r, "text"), "Summary: lookup_price → hooked price; click → clicked");
    assert_eq!(attempts.get(), 3, "one 503, retried, then two model calls");
    assert_eq!(seen_llm.get(), 2);
    let events = events.borrow();
    assert!(events.iter().filter(|e| *e == "llm:scripted").count() >= 2, "{events:?}");
    assert!(events.contains(&"tool:click/relay".to_string()), "{events:?}");
    assert_eq!(events.last().map(String::as_str), Some("run:scripted"));
}

/// A promise and the function that resolves it.
fn pending_promise() -> (Promise, Function) {
    let mut resolve = None;
    let p = Promise::new(&mut |r, _| resolve = Some(r));
    (p, resolve.unwrap())
}

#[wasm_bindgen_test]
async fn the_executor_keeps_each_await_apart() {
    // The edge awaits host promises with wasm-bindgen-futures' `JsFuture` and runs each
    // operation with `future_to_promise`: what it relies on, in the hosts it runs in.
    use wasm_bindgen_futures::{future_to_promise, JsFuture};
    let settle = |p: &Promise| JsFuture::from(p.clone());
    // A finished await still alive while the next one starts must not disturb the next one.
    let mut first = settle(&Promise::resolve(&JsValue::from(1)));
    assert_eq!((&mut first).await.unwrap(), 1);
    let (p, resolve) = pending_promise();
    let second = settle(&p);
    drop(first);
    resolve.call1(&JsValue::UNDEFINED, &2.into()).unwrap();
    assert_eq!(second.await.unwrap(), 2);
    // An await dropped before its promise settles (an aborted run): the settlement that comes
    // later finds its callbacks still valid and frees them (no "closure invoked after being
    // dropped" throw reaches the host).
    let (p, resolve) = pending_promise();
    drop(settle(&p));
    resolve.call1(&JsValue::UNDEFINED, &3.into()).unwrap();
    assert_eq!(await_promise(p).await.unwrap(), 3);
    assert_eq!(settle(&Promise::reject(&JsValue::from("no"))).await.unwrap_err(), "no");
    // Many tasks at once, each awaiting twice, settle each with its own value.
    let tasks: Vec<Promise> = (0..64)
        .map(|i| {
            future_to_promise(async move {
                let a = JsFuture::from(Promise::resolve(&JsValue::from(i))).await?;
                JsFuture::from(Promise::resolve(&JsValue::from(a.as_f64().unwrap() * 2.0))).await
            })
        })
        .collect();
    for (i, t) in tasks.into_iter().enumerate() {
        assert_eq!(await_promise(t).await.unwrap(), (i * 2) as f64);
    }
}
