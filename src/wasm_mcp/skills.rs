//! `SkillSet`: `skillTool(skills, options?)`'s runner, over the core's `crate::sources::skill`
//! (no I/O: skills are data).

use super::{js, json_of};
use crate::edge::{js_error, JsResult};
use wasm_bindgen::prelude::*;

/// `skillTool(skills, options?)`'s runner.
#[wasm_bindgen]
pub struct SkillSet(crate::sources::skill::Skills);

#[wasm_bindgen]
impl SkillSet {
    #[wasm_bindgen(constructor)]
    pub fn new(skills: JsValue, options: JsValue) -> JsResult<SkillSet> {
        crate::sources::skill::Skills::from_json(&json_of(&skills), &json_of(&options)).map(SkillSet).map_err(js_error)
    }

    pub fn declaration(&self) -> JsValue {
        js(&crate::sources::skill::Skills::declaration())
    }

    /// The catalog for the system prompt.
    pub fn prompt(&self) -> String {
        self.0.prompt()
    }

    /// Loads one skill (a tool result).
    pub fn run(&self, args: JsValue) -> JsValue {
        js(&self.0.run(&json_of(&args)).to_value())
    }
}
