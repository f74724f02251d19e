//! The rules of a race: a die whose faces move the swine, the butcher, both, or nobody, read
//! from a JSON rules file. `data/race/swine-butcher.json` (seed 004's game) is built in.
//!
//! ```json
//! { "name": "...",
//!   "board": { "length": 12, "swine": 7, "butcher": 1 },
//!   "die": { "sides": 6, "faces": [ { "face": 1, "swine": 1, "butcher": 0 }, ... ] } }
//! ```
//! `name` (at most 80 printable characters) and `board` (the default start) are optional. Every face from 1 to `sides` is
//! listed once. A face may carry a `probability` ("1/6", "0.25" or a number); then every face
//! must, and they must sum to exactly 1. Without them the die is fair.

use crate::engine::error::shortened_fraction;
use crate::error::Error;
use crate::formats::number::{self, NumberError};
use rug::{Integer, Rational};
use serde::Deserialize;
use serde_json::{Number, Value};
use std::path::Path;

/// The built-in game, the text of `data/race/swine-butcher.json`.
pub const DEFAULT_RULES: &str = include_str!("../../data/race/swine-butcher.json");
const DEFAULT_SOURCE: &str = "data/race/swine-butcher.json (built in)";

/// More sides than any real die, few enough to list.
pub const MAX_SIDES: u32 = 10_000;

/// The longest rules name: it heads every report and must fit a line.
pub const MAX_NAME_CHARS: usize = 80;

/// What one face of the die does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Face {
    pub face: u32,
    /// Squares the swine moves.
    pub swine: u32,
    /// Squares the butcher moves.
    pub butcher: u32,
    pub probability: Rational,
    /// `probability` times the die's common denominator: an integer weight for the engine.
    pub weight: u64,
}

impl Face {
    /// A face that moves nobody leaves the game where it is.
    pub fn stays(&self) -> bool {
        self.swine == 0 && self.butcher == 0
    }
}

/// A board and where the two start: the swine ahead, the butcher behind, the river at
/// square `length`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    pub length: u32,
    pub swine: u32,
    pub butcher: u32,
}

impl Setup {
    /// Checks a start: a board of two squares or more, the swine before the river, the
    /// butcher behind the swine (square 0, just off the board, is allowed).
    pub fn new(length: u32, swine: u32, butcher: u32) -> Result<Setup, Error> {
        if length < 2 {
            return Err(Error::Invalid(format!("the board length must be at least 2, not {length}")));
        }
        if swine >= length {
            return Err(Error::Invalid(format!(
                "the swine must start before the river: swine on {swine}, river at {length}"
            )));
        }
        if butcher >= swine {
            return Err(Error::Invalid(format!(
                "the butcher must start behind the swine: butcher on {butcher}, swine on {swine}"
            )));
        }
        Ok(Setup { length, swine, butcher })
    }
}

/// A validated die with its faces in order 1..=sides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    pub name: String,
    pub faces: Vec<Face>,
    /// The start the file proposes, if any (not yet checked against the board).
    pub board: Option<Setup>,
    /// The sum of the faces' weights (the common denominator of their probabilities).
    pub total_weight: u64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RulesFile {
    name: Option<String>,
    board: Option<Setup>,
    die: DieFile,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DieFile {
    // Any JSON number, so that a count out of range is refused with the range it must be in,
    // not a u32's.
    sides: Number,
    faces: Vec<FaceFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FaceFile {
    face: u32,
    // Any JSON number, so that a negative, fractional or huge move gets a clear message
    // rather than serde's type error.
    swine: Number,
    butcher: Number,
    probability: Option<Value>,
}

impl Rules {
    /// Seed 004's game: a fair six-sided die; 1-3 move the swine, 4 both by one, 5 and 6
    /// the butcher.
    pub fn default_game() -> Rules {
        Rules::from_json(DEFAULT_RULES, DEFAULT_SOURCE).expect("the built-in rules are valid")
    }

    pub fn load(path: &Path) -> Result<Rules, Error> {
        let file = crate::input::shown_path(path);
        let text =
            crate::input::read_input(path).map_err(|why| Error::BadRules { file: file.clone(), why })?;
        Rules::from_json(&text, &file)
    }

    /// Parses and checks a rules file's text; `source` names it in errors.
    pub fn from_json(text: &str, source: &str) -> Result<Rules, Error> {
        let one_line = crate::input::one_line;
        let bad = |why: String| Error::BadRules { file: one_line(source), why: one_line(&why) };
        let raw: RulesFile = crate::input::json(text).map_err(bad)?;
        if let Some(name) = &raw.name {
            check_name(name).map_err(bad)?;
        }
        let faces = check_faces(raw.die).map_err(bad)?;
        let total_weight = faces.iter().map(|f| f.weight).sum();
        Ok(Rules {
            name: raw.name.unwrap_or_else(|| source.to_string()),
            faces,
            board: raw.board,
            total_weight,
        })
    }

    /// The probability that a roll moves nobody.
    pub fn stay_probability(&self) -> Rational {
        self.faces.iter().filter(|f| f.stays()).map(|f| &f.probability).sum()
    }

    /// The faces that move someone, as (swine, butcher, weight).
    pub fn moving_faces(&self) -> Vec<(u32, u32, u64)> {
        self.faces
            .iter()
            .filter(|f| !f.stays() && f.weight > 0)
            .map(|f| (f.swine, f.butcher, f.weight))
            .collect()
    }

    /// Every face equally likely.
    pub fn is_fair(&self) -> bool {
        self.faces.iter().all(|f| f.probability == self.faces[0].probability)
    }
}

/// A name of 1 to `MAX_NAME_CHARS` printable characters: it heads every report.
fn check_name(name: &str) -> Result<(), String> {
    let chars = name.chars().count();
    if chars > MAX_NAME_CHARS {
        return Err(format!("the name has {chars} characters, more than {MAX_NAME_CHARS}"));
    }
    if name.trim().is_empty() {
        return Err("the name is empty: leave it out to name the game after the file".into());
    }
    if name.chars().any(char::is_control) {
        return Err("the name holds a control character (a line break or a tab, say)".into());
    }
    // U+202E and the like reorder or hide the text around them: the title would lie.
    if name.contains(crate::input::unprintable) {
        return Err("the name holds an invisible formatting character (U+202E, say)".into());
    }
    Ok(())
}

/// The die of a rules file, checked: every side listed once, probabilities that are exact,
/// non-negative and add up to 1, and moves of zero or more.
fn check_faces(die: DieFile) -> Result<Vec<Face>, String> {
    let listed = faces_in_order(die)?;
    let sides = listed.len() as u32; // every side is listed once
    let probabilities = face_probabilities(&listed, sides)?;
    let denominator = common_denominator(&probabilities)?;
    let mut faces = Vec::with_capacity(listed.len());
    for (f, probability) in listed.into_iter().zip(probabilities) {
        let distance = |who: &str, d: &Number| -> Result<u32, String> {
            if let Some(d) = d.as_u64().and_then(|d| u32::try_from(d).ok()) {
                return Ok(d);
            }
            let value = d.as_f64().unwrap_or_default();
            let d = written(d);
            let why = if value < 0.0 {
                "a move must be zero or more".to_string()
            } else if value.fract() != 0.0 {
                "a move is a whole number of squares".to_string()
            } else {
                format!("out of range, a move is at most {} squares", u32::MAX)
            };
            Err(format!("face {} moves the {who} by {d}: {why}", f.face))
        };
        let weight = Integer::from(probability.numer() * &denominator) / probability.denom();
        faces.push(Face {
            face: f.face,
            swine: distance("swine", &f.swine)?,
            butcher: distance("butcher", &f.butcher)?,
            weight: weight.to_u64().expect("at most the denominator"),
            probability,
        });
    }
    if faces.iter().all(|f| f.stays() || f.weight == 0) {
        return Err("no face moves anyone, so the game would never end".into());
    }
    Ok(faces)
}

/// A number of a rules file in words. serde_json reads a whole number past 64 bits as a
/// double (18446744073709551616 as 1.8446744073709552e+19), not the number written: such a
/// number is said by the bound it passes.
fn written(n: &Number) -> String {
    match n.as_f64() {
        Some(v) if n.is_f64() && v.fract() == 0.0 && v >= u64::MAX as f64 => {
            format!("more than {}", u64::MAX)
        }
        Some(v) if n.is_f64() && v.fract() == 0.0 && v <= i64::MIN as f64 => {
            format!("less than {}", i64::MIN)
        }
        _ => n.to_string(),
    }
}

/// The faces by number, 1 to `sides`: each listed exactly once.
fn faces_in_order(die: DieFile) -> Result<Vec<FaceFile>, String> {
    let sides = match die.sides.as_u64() {
        Some(sides) if (1..=u64::from(MAX_SIDES)).contains(&sides) => sides as u32,
        _ => {
            return Err(format!(
                "`die.sides` must be a whole number from 1 to {MAX_SIDES}, not {}",
                written(&die.sides)
            ));
        }
    };
    let mut slots: Vec<Option<FaceFile>> = (0..sides).map(|_| None).collect();
    for f in die.faces {
        if f.face == 0 || f.face > sides {
            return Err(format!(
                "face {} is not a side of a {sides}-sided die (faces are 1 to {sides})",
                f.face
            ));
        }
        let slot = &mut slots[f.face as usize - 1];
        if slot.is_some() {
            return Err(format!("face {} is listed twice", f.face));
        }
        *slot = Some(f);
    }
    let missing: Vec<String> =
        slots.iter().enumerate().filter(|(_, s)| s.is_none()).map(|(i, _)| (i + 1).to_string()).collect();
    match missing.len() {
        0 => Ok(slots.into_iter().flatten().collect()),
        1 => Err(format!("face {} of {sides} is missing", missing[0])),
        n if n <= 10 => Err(format!("faces {} of {sides} are missing", missing.join(", "))),
        n => Err(format!("{n} faces of {sides} are missing: {}, ...", missing[..10].join(", "))),
    }
}

/// Each face's exact probability: all given or none (a fair die), non-negative, adding up
/// to exactly 1.
fn face_probabilities(listed: &[FaceFile], sides: u32) -> Result<Vec<Rational>, String> {
    let given = listed.iter().filter(|f| f.probability.is_some()).count();
    if let Some(without) = listed.iter().find(|f| f.probability.is_none()).filter(|_| given != 0) {
        return Err(format!(
            "face {} has no probability but other faces do: give every face a probability, or none",
            without.face
        ));
    }
    let mut probabilities = Vec::with_capacity(listed.len());
    for f in listed {
        let p = match &f.probability {
            None => Rational::from((1, sides)),
            Some(v) => parse_probability(v).map_err(|(e, text)| {
                format!(
                    "face {}: {}",
                    f.face,
                    e.why("a probability, a number or a fraction like \"1/6\"", &text)
                )
            })?,
        };
        if p < 0 {
            return Err(format!("face {} has a negative probability, {}", f.face, shortened_fraction(&p)));
        }
        probabilities.push(p);
    }
    let sum: Rational = probabilities.iter().sum();
    if sum != 1 {
        return Err(format!("the face probabilities sum to {}, not 1", shortened_fraction(&sum)));
    }
    Ok(probabilities)
}

/// The probabilities' common denominator: the faces' integer weights add up to it, and the
/// engine takes weights of at most 32 bits.
fn common_denominator(probabilities: &[Rational]) -> Result<Integer, String> {
    let mut denominator = Integer::from(1);
    for p in probabilities {
        denominator.lcm_mut(p.denom());
    }
    if denominator > u32::MAX {
        return Err(format!(
            "the probabilities' common denominator {} is too large (at most {})",
            shortened_fraction(&Rational::from(denominator)),
            u32::MAX
        ));
    }
    Ok(denominator)
}

/// "1/6", "0.25", "1e-3" or a JSON number, exactly (a number through its shortest decimal
/// text), read as chain files' numbers are; or why not, with the text read.
fn parse_probability(v: &Value) -> Result<Rational, (NumberError, String)> {
    let text = match v {
        // Spaces around the fraction's bar are the writer's, not the number's.
        Value::String(s) => s.split('/').map(str::trim).collect::<Vec<_>>().join("/"),
        Value::Number(n) => n.to_string(),
        other => return Err((NumberError::NotANumber, other.to_string())),
    };
    number::parse(&text).map_err(|e| (e, text))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(faces: &str) -> Result<Rules, Error> {
        Rules::from_json(&format!(r#"{{"die": {{"sides": 3, "faces": [{faces}]}}}}"#), "test.json")
    }

    fn why(faces: &str) -> String {
        rules(faces).unwrap_err().to_string()
    }

    #[test]
    fn long_or_unprintable_names_are_refused() {
        let rules = |name: &str| {
            let faces = r#"[{"face": 1, "swine": 1, "butcher": 0}, {"face": 2, "swine": 0, "butcher": 1}]"#;
            let name = serde_json::to_string(name).unwrap();
            let text = format!(r#"{{"name": {name}, "die": {{"sides": 2, "faces": {faces}}}}}"#);
            Rules::from_json(&text, "r.json").map(|r| r.name).map_err(|e| e.to_string())
        };
        assert_eq!(rules(&"n".repeat(80)).unwrap().len(), 80);
        assert!(rules(&"n".repeat(81)).unwrap_err().contains("the name has 81 characters, more than 80"));
        assert!(rules("a\nb").unwrap_err().contains("control character"));
        assert!(rules("x\u{202E}y").unwrap_err().contains("invisible formatting character"));
        assert!(rules("").unwrap_err().contains("the name is empty"));
        assert!(rules("  ").unwrap_err().contains("the name is empty"));
    }

    #[test]
    fn the_built_in_game_is_seed_004() {
        let r = Rules::default_game();
        let effects: Vec<(u32, u32)> = r.faces.iter().map(|f| (f.swine, f.butcher)).collect();
        assert_eq!(effects, [(1, 0), (2, 0), (3, 0), (1, 1), (0, 5), (0, 6)]);
        assert!(r.is_fair());
        assert_eq!(r.total_weight, 6);
        assert_eq!(r.stay_probability(), 0);
        assert_eq!(r.board, Some(Setup { length: 12, swine: 7, butcher: 1 }));
    }

    #[test]
    fn probabilities_are_exact_in_any_notation() {
        let r = rules(
            r#"{"face": 1, "swine": 1, "butcher": 0, "probability": "1/3"},
               {"face": 2, "swine": 0, "butcher": 0, "probability": 0.5},
               {"face": 3, "swine": 0, "butcher": 2, "probability": "1.6666666666666666e-1"}"#,
        );
        // 1/3 + 1/2 + 0.16666666666666666 is not 1: decimals are taken at face value.
        assert!(r.unwrap_err().to_string().contains("sum to"));
        let r = rules(
            r#"{"face": 3, "swine": 0, "butcher": 2, "probability": "1/6"},
               {"face": 1, "swine": 1, "butcher": 0, "probability": "1/3"},
               {"face": 2, "swine": 0, "butcher": 0, "probability": 0.5}"#,
        )
        .unwrap();
        assert_eq!(r.faces.iter().map(|f| f.weight).collect::<Vec<_>>(), [2, 3, 1]);
        assert_eq!(r.total_weight, 6);
        assert_eq!(r.stay_probability(), Rational::from((1, 2)));
        assert_eq!(r.moving_faces(), [(1, 0, 2), (0, 2, 1)]);
        let read = |text: &str| parse_probability(&Value::String(text.into())).map_err(|(e, _)| e);
        assert_eq!(read("2.5e-3"), Ok(Rational::from((1, 400))));
        assert_eq!(read(" 1 / 6 "), Ok(Rational::from((1, 6))));
        assert_eq!(read("1e-2000"), Ok(Rational::from((1, Integer::from(Integer::u_pow_u(10, 2000))))));
        assert_eq!(read("1.-5"), Err(NumberError::NotANumber));
        assert_eq!(read("x"), Err(NumberError::NotANumber));
        assert_eq!(read("1e-20000"), Err(NumberError::ExponentTooLarge));
    }

    #[test]
    fn bad_dice_are_refused_with_a_reason() {
        let f1 = r#"{"face": 1, "swine": 1, "butcher": 0}"#;
        let f2 = r#"{"face": 2, "swine": 0, "butcher": 1}"#;
        assert_eq!(why(&format!("{f1}, {f2}")), "rules file test.json: face 3 of 3 is missing");
        assert!(why(f1).contains("faces 2, 3 of 3 are missing"));
        assert!(why(&format!(r#"{f1}, {f2}, {f2}"#)).contains("face 2 is listed twice"));
        assert!(
            why(&format!(r#"{f1}, {f2}, {{"face": 4, "swine": 0, "butcher": 1}}"#)).contains("not a side")
        );
        assert!(
            why(&format!(r#"{f1}, {f2}, {{"face": 3, "swine": 0, "butcher": -2}}"#))
                .contains("face 3 moves the butcher by -2: a move must be zero or more")
        );
        let stays = r#"{"face": 1, "swine": 0, "butcher": 0}, {"face": 2, "swine": 0, "butcher": 0},
                       {"face": 3, "swine": 0, "butcher": 0}"#;
        assert!(why(stays).contains("no face moves anyone"));
        let partial = format!(r#"{f1}, {f2}, {{"face": 3, "swine": 0, "butcher": 2, "probability": "1/3"}}"#);
        assert!(why(&partial).contains("face 1 has no probability"));
        let negative = r#"{"face": 1, "swine": 1, "butcher": 0, "probability": "2/3"},
                          {"face": 2, "swine": 0, "butcher": 1, "probability": "2/3"},
                          {"face": 3, "swine": 0, "butcher": 2, "probability": "-1/3"}"#;
        assert!(why(negative).contains("face 3 has a negative probability, -1/3"));
        let probability = |p: &str| {
            why(&format!(
                r#"{{"face": 1, "swine": 1, "butcher": 0, "probability": {p}}},
                           {{"face": 2, "swine": 0, "butcher": 1, "probability": "1/3"}},
                           {{"face": 3, "swine": 0, "butcher": 2, "probability": "1/3"}}"#
            ))
        };
        assert_eq!(
            probability(r#""abc""#),
            r#"rules file test.json: face 1: not a probability, a number or a fraction like "1/6": "abc""#
        );
        assert_eq!(
            probability(r#""1e-20000""#),
            r#"rules file test.json: face 1: "1e-20000" has too large an exponent: exponents up to ±10000 are taken"#
        );
        assert!(why(r#"{"face": 1, "swine": 1}"#).contains("missing field `butcher`"));
        // The range given is the real one: 0 was refused as "needs at least one side", and
        // 4294967296 as "must be a whole number from 0 to 4294967295".
        for (sides, shown) in [
            ("0", "0"),
            ("10001", "10001"),
            ("4294967296", "4294967296"),
            ("18446744073709551616", "more than 18446744073709551615"),
            ("-1", "-1"),
            ("2.5", "2.5"),
        ] {
            let huge = Rules::from_json(&format!(r#"{{"die": {{"sides": {sides}, "faces": []}}}}"#), "x");
            assert_eq!(
                huge.unwrap_err().to_string(),
                format!("rules file x: `die.sides` must be a whole number from 1 to 10000, not {shown}")
            );
        }
        let many = Rules::from_json(r#"{"die": {"sides": 20, "faces": []}}"#, "x");
        assert!(
            many.unwrap_err()
                .to_string()
                .contains("20 faces of 20 are missing: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, ...")
        );
        let unknown = Rules::from_json(r#"{"die": {"sides": 1, "faces": []}, "colour": 1}"#, "x");
        assert!(unknown.unwrap_err().to_string().contains("unknown field `colour`"));
    }

    #[test]
    fn setups_are_checked() {
        assert!(Setup::new(12, 7, 1).is_ok());
        assert!(Setup::new(2, 1, 0).is_ok());
        assert!(Setup::new(1, 0, 0).unwrap_err().to_string().contains("at least 2"));
        assert!(Setup::new(12, 12, 1).unwrap_err().to_string().contains("before the river"));
        assert!(Setup::new(12, 7, 7).unwrap_err().to_string().contains("behind the swine"));
    }
}
