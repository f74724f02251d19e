//! The command-line contract: output shapes, hole notations, and bad input.

mod support;
use predicates::prelude::*;
use support::{fails_with, json, pegchain};

#[test]
fn exact_json_has_the_documented_fields() {
    let v = json(&["exact", "--board", "triangle5"]);
    assert_eq!(v["board"], "triangle5");
    let starts = v["starts"].as_array().unwrap();
    assert_eq!(starts.len(), 15);
    let a = &starts[0];
    assert_eq!(a["hole"], "A");
    for key in ["class", "win", "win_decimal", "bits", "pegs_left", "expected_pegs_left", "finish_in_start"] {
        assert!(!a[key].is_null(), "missing {key}");
    }
    let win = a["win"].as_str().unwrap();
    assert!(win.contains('/'), "{win}");
    assert_eq!(v["classes"].as_array().unwrap().len(), 4);
    assert_eq!(v["classes"][0]["holes"], serde_json::json!(["A", "K", "O"]));
    let bits = v["random_start"]["bits"].as_f64().unwrap();
    assert!((bits - 7.79).abs() < 0.01);
}

#[test]
fn count_json_holds_big_numbers_as_strings() {
    let v = json(&["count", "--start", "A"]);
    let s = &v["starts"][0];
    assert_eq!(s["games"], "568630");
    assert_eq!(s["games_by_pegs_left"]["7"], "324");
    assert_eq!(s["wins_by_finish"]["M"], "16128");
    assert!(s["positions"]["raw"].is_string());
}

#[test]
fn a_hole_by_name_number_or_rank_and_file_is_the_same_hole() {
    let by = |h: &str| json(&["exact", "--start", h])["starts"][0]["hole"].clone();
    assert_eq!(by("A"), "A");
    assert_eq!(by("1"), "A");
    assert_eq!(by("a1"), "A");
    assert_eq!(by("c3"), "F");
    assert_eq!(by("e"), "E");
}

#[test]
fn boards_and_show_list_and_draw() {
    pegchain()
        .arg("boards")
        .assert()
        .success()
        .stdout(predicate::str::contains("english").and(predicate::str::contains("33 holes")));
    pegchain()
        .args(["show", "--board", "triangle5"])
        .assert()
        .success()
        .stdout(predicate::str::contains("    A\n   B C\n  D E F\n G H I J\nK L M N O\n"));
    pegchain().args(["show", "--board", "english"]).assert().success().stdout(predicate::str::contains("d4"));
}

#[test]
fn bad_input_gets_one_line_and_exit_code_2() {
    fails_with(&["exact", "--board", "hexagon"], "unknown board \"hexagon\"");
    fails_with(&["exact", "--start", "P"], "has no hole \"P\"");
    fails_with(&["exact", "--start", "0"], "has no hole \"0\"");
    fails_with(&["count", "--start", "f3"], "has no hole \"f3\"");
    fails_with(&["exact", "--policy", "greedy"], "unknown policy");
    fails_with(&["exact", "--max-memory", "-1"], "--max-memory");
    fails_with(
        &["exact", "--board", "triangle10", "--start", "A", "--max-memory", "0.05"],
        "too large for the exact engine",
    );
}

#[test]
fn no_arguments_prints_help() {
    pegchain().assert().success().stdout(predicate::str::contains("Usage"));
}
