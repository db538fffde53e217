//! `spec/scenario.schema.json` holds for every JSON entry of the conformance suite and of a
//! failing scenario, and refuses what it should: a small validator of the JSON Schema
//! keywords the schema uses (`$ref`, `type`, `enum`, `pattern`, `required`, `properties`,
//! `additionalProperties`, `propertyNames`, `items`, `minItems`, `maxItems`, `minimum`,
//! `maximum`, `oneOf`), so the check needs no schema crate.

use reversi_check::scenario::{self, suite, JsonScenario};
use serde_json::{json, Value};

fn schema() -> Value {
    serde_json::from_str(suite::SCHEMA).expect("the schema is JSON")
}

fn type_ok(t: &str, v: &Value) -> bool {
    match t {
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "integer" => v.is_u64() || v.is_i64(),
        "number" => v.is_number(),
        "boolean" => v.is_boolean(),
        "null" => v.is_null(),
        other => panic!("schema type {other} not handled"),
    }
}

/// The errors of `v` against `s` (a schema or subschema of `root`), each with its path.
fn validate(root: &Value, s: &Value, v: &Value, path: &str, errors: &mut Vec<String>) {
    let Some(s) = s.as_object() else {
        return;
    };
    for key in s.keys() {
        assert!(
            [
                "$schema",
                "$id",
                "title",
                "description",
                // Annotations: the normative paths (spec/scenario.md §8).
                "x-normative",
                "x-not-normative",
                "$defs",
                "$ref",
                "type",
                "enum",
                "pattern",
                "required",
                "properties",
                "additionalProperties",
                "propertyNames",
                "items",
                "minItems",
                "maxItems",
                "minimum",
                "maximum",
                "oneOf"
            ]
            .contains(&key.as_str()),
            "schema keyword {key} not handled"
        );
    }
    if let Some(r) = s.get("$ref").and_then(Value::as_str) {
        let name = r.strip_prefix("#/$defs/").expect("local refs only");
        validate(root, &root["$defs"][name], v, path, errors);
    }
    match s.get("type") {
        Some(Value::String(t)) if !type_ok(t, v) => errors.push(format!("{path}: not {t}")),
        Some(Value::Array(ts)) if !ts.iter().any(|t| type_ok(t.as_str().unwrap(), v)) => {
            errors.push(format!("{path}: none of the types {ts:?}"))
        }
        _ => {}
    }
    if let Some(Value::Array(options)) = s.get("enum") {
        if !options.contains(v) {
            errors.push(format!("{path}: {v} not in the enum"));
        }
    }
    if let (Some(p), Some(text)) = (s.get("pattern").and_then(Value::as_str), v.as_str()) {
        if !regex::Regex::new(p).unwrap().is_match(text) {
            errors.push(format!("{path}: {text:?} does not match {p}"));
        }
    }
    if let (Some(min), Some(n)) = (s.get("minimum").and_then(Value::as_i64), v.as_i64()) {
        if n < min {
            errors.push(format!("{path}: {n} below {min}"));
        }
    }
    if let (Some(max), Some(n)) = (s.get("maximum").and_then(Value::as_i64), v.as_i64()) {
        if n > max {
            errors.push(format!("{path}: {n} above {max}"));
        }
    }
    if let Some(items) = v.as_array() {
        if let Some(n) = s.get("minItems").and_then(Value::as_u64) {
            if (items.len() as u64) < n {
                errors.push(format!("{path}: fewer than {n} items"));
            }
        }
        if let Some(n) = s.get("maxItems").and_then(Value::as_u64) {
            if items.len() as u64 > n {
                errors.push(format!("{path}: more than {n} items"));
            }
        }
        if let Some(item) = s.get("items") {
            for (i, x) in items.iter().enumerate() {
                validate(root, item, x, &format!("{path}[{i}]"), errors);
            }
        }
    }
    if let Some(map) = v.as_object() {
        for r in s
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if !map.contains_key(r.as_str().unwrap()) {
                errors.push(format!("{path}: {r} is required"));
            }
        }
        let props = s.get("properties").and_then(Value::as_object);
        for (k, x) in map {
            let sub = format!("{path}.{k}");
            if let Some(names) = s.get("propertyNames") {
                validate(root, names, &Value::from(k.as_str()), &sub, errors);
            }
            match props.and_then(|p| p.get(k)) {
                Some(ps) => validate(root, ps, x, &sub, errors),
                None => match s.get("additionalProperties") {
                    Some(Value::Bool(false)) => errors.push(format!("{sub}: not allowed")),
                    Some(extra @ Value::Object(_)) => validate(root, extra, x, &sub, errors),
                    _ => {}
                },
            }
        }
    }
    if let Some(Value::Array(options)) = s.get("oneOf") {
        let fits = options
            .iter()
            .filter(|o| {
                let mut e = Vec::new();
                validate(root, o, v, path, &mut e);
                e.is_empty()
            })
            .count();
        if fits != 1 {
            errors.push(format!("{path}: fits {fits} of oneOf, not 1"));
        }
    }
}

fn errors_of(v: &Value) -> Vec<String> {
    let root = schema();
    let mut errors = Vec::new();
    validate(&root, &root, v, "$", &mut errors);
    errors
}

#[test]
fn every_suite_json_fits_the_schema() {
    let files = suite::files().unwrap();
    let mut checked = 0;
    for f in files
        .iter()
        .filter(|f| f.path.ends_with(".json") && f.path.contains('/'))
    {
        let v: Value = serde_json::from_str(&f.contents).unwrap();
        let errors = errors_of(&v);
        assert!(errors.is_empty(), "{}: {errors:#?}", f.path);
        // And it reads back as the library's type.
        let _: JsonScenario = serde_json::from_value(v).unwrap();
        checked += 1;
    }
    assert!(checked > 100, "{checked}");
}

#[test]
fn a_failed_scenario_entry_fits_the_schema() {
    let e = scenario::run("rules: othello\nmoves: f5 f5\n").unwrap_err();
    let entry = JsonScenario::failed("a.scenario", &e, Some(2));
    let v = serde_json::to_value(&entry).unwrap();
    assert!(errors_of(&v).is_empty(), "{:?}", errors_of(&v));
    assert_eq!(v["error"]["code"], "scenario-unexpected-refusal");
}

#[test]
fn the_schema_refuses_what_it_should() {
    let t = scenario::run("rules: classic\nmoves: d4 !d4 e4").unwrap();
    let good = serde_json::to_value(t.to_json("a.scenario")).unwrap();
    assert!(errors_of(&good).is_empty(), "{:?}", errors_of(&good));
    let spoil = |f: &dyn Fn(&mut Value)| {
        let mut v = good.clone();
        f(&mut v);
        errors_of(&v)
    };
    assert!(!spoil(&|v| v["positions"][0]["turn"] = json!("blue")).is_empty());
    assert!(!spoil(&|v| v["moves"][1]["refusal"] = json!("Nope")).is_empty());
    assert!(!spoil(&|v| v["moves"][0]["after"]["phase"] = json!("end")).is_empty());
    assert!(!spoil(&|v| v["positions"][0]["in_hand"]["black"] = json!(40)).is_empty());
    assert!(!spoil(&|v| v["positions"][0]["board"][0] = json!("....Z...")).is_empty());
    assert!(!spoil(&|v| {
        v.as_object_mut().unwrap().shift_remove("moves");
    })
    .is_empty());
    assert!(!spoil(&|v| v["extra"] = json!(1)).is_empty());
    assert!(!spoil(&|v| v["setup"]["phase"] = json!(null)).is_empty());
}
