//! Every decimal beside a fraction in the JSON of `simulate`, `audit` and `race` is the
//! double nearest to that fraction (ties to even): read back with Rust's correctly rounded
//! parser from the JSON text itself, and compared with the exact conversion.

mod support;
use pegchain::render::number::nearest_f64;
use rug::Rational;
use support::stdout;

/// Every (fraction, decimal) pair in a pretty-printed JSON document, as written.
fn pairs(json: &str) -> Vec<(String, String)> {
    let lines: Vec<&str> = json.lines().map(str::trim).collect();
    let value = |line: &str, key: &str| {
        line.strip_prefix(key).map(|v| v.trim_end_matches(',').trim_matches('"').to_string())
    };
    lines
        .windows(2)
        .filter_map(|w| Some((value(w[0], "\"fraction\": ")?, value(w[1], "\"decimal\": ")?)))
        .collect()
}

fn check(args: &[&str]) -> usize {
    // `race` shows no progress, so it has no --quiet.
    let quiet: &[&str] = if args[0] == "race" { &[] } else { &["-q"] };
    let json = stdout(&[args, &["--json"], quiet].concat());
    let found = pairs(&json);
    assert_eq!(
        found.len(),
        json.matches("\"fraction\":").count(),
        "{args:?}: a decimal beside every fraction"
    );
    for (fraction, decimal) in &found {
        let exact: Rational = fraction.parse().expect("a fraction");
        let written: f64 = decimal.parse().expect("a decimal");
        assert_eq!(
            written.to_bits(),
            nearest_f64(&exact).to_bits(),
            "{args:?}: {fraction} written as {decimal}"
        );
    }
    found.len()
}

#[test]
fn simulate_decimals_are_the_nearest_doubles() {
    assert!(check(&["simulate", "--games", "20000", "--start", "all"]) > 100);
    assert!(check(&["simulate", "--per-class", "5000", "--policy", "peg-first"]) > 50);
}

#[test]
fn audit_decimals_are_the_nearest_doubles() {
    assert!(check(&["audit", "--games", "20000"]) > 100);
}

#[test]
fn race_decimals_are_the_nearest_doubles() {
    let distracted = support::data("race/distracted-butcher.json");
    assert!(check(&["race", "--rules", distracted.to_str().unwrap(), "--simulate", "1000"]) > 50);
    assert!(check(&["race", "--grid"]) >= 55);
    assert!(check(&["race", "--lengths", "8..30"]) > 60);
    // Fractions of a hundred digits and more.
    assert!(check(&["race", "--length", "120", "--swine", "60", "--butcher", "2"]) > 100);
}
