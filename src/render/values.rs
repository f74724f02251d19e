//! The pieces the peg-solitaire views are built from: an exact value that serializes as the
//! contract's `{"fraction", "decimal"}` pair but keeps its rational for text, a big integer
//! that serializes as a string of digits, a map whose keys keep their order, and the text
//! forms of exact values (decimals with six significant digits, fractions abbreviated unless
//! `--full`).
//!
//! These sit beside `number` rather than in it because they only combine its functions; if
//! the number formatter grows the same helpers, these should become thin calls to it.

use super::Style;
use super::number::{self, Exact, abbreviated, grouped, significant, significant_exact};
use rug::{Integer, Rational};
use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

/// Fractions longer than this are abbreviated in text and Markdown unless `--full`.
pub const FRACTION_CHARS: usize = 40;

/// Significant digits of every decimal a person reads.
pub const DIGITS: usize = 6;

/// A probability (P(one peg left), say) and its information in bits (absent when the probability is 0).
#[derive(Clone, Debug, Serialize)]
pub struct Win {
    pub win: Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bits: Option<f64>,
}

impl Win {
    pub fn of(p: &Rational) -> Win {
        let win = Value::of(p);
        Win { bits: win.bits(), win }
    }

    /// The bits as text: six significant digits, `inf` for a probability of zero.
    pub fn bits_text(&self) -> String {
        self.win.bits_text()
    }
}

/// An exact value: `{"fraction", "decimal"}` in JSON (through [`Exact`]), the rational
/// itself for text.
#[derive(Clone, Debug, PartialEq)]
pub struct Value(pub Rational);

impl Value {
    pub fn of(value: &Rational) -> Value {
        Value(value.clone())
    }

    /// The decimal a person reads: six significant digits, rounded from the fraction.
    pub fn decimal(&self) -> String {
        significant_exact(&self.0, DIGITS)
    }

    /// The fraction, abbreviated past 40 characters unless `style` asks for it whole.
    pub fn fraction(&self, style: Style) -> String {
        if style.full_fractions { self.0.to_string() } else { abbreviated(&self.0, FRACTION_CHARS) }
    }

    /// "p/q (0.00450695)"; only the number when it is whole.
    pub fn fraction_and_decimal(&self, style: Style) -> String {
        if *self.0.denom() == 1 {
            return self.0.to_string();
        }
        format!("{} ({})", self.fraction(style), self.decimal())
    }

    /// -log2 of the value in bits; `None` when the value is zero (infinitely many bits).
    pub fn bits(&self) -> Option<f64> {
        Some(number::bits(&self.0)).filter(|b| b.is_finite())
    }

    /// The bits as text: six significant digits, `inf` for a probability of zero.
    pub fn bits_text(&self) -> String {
        self.bits().map_or("inf".into(), |b| significant(b, DIGITS))
    }

    /// The CSV cells: the fraction whole and the correctly rounded decimal (empty beyond a
    /// double's range, as JSON leaves it out).
    pub fn cells(&self) -> [String; 2] {
        let pair = Exact::of(&self.0);
        [pair.fraction, pair.decimal.map_or(String::new(), decimal_cell)]
    }
}

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Exact::of(&self.0).serialize(serializer)
    }
}

/// A double as JSON writes it (`4.18944`, `2.6977639151784022e-8`): the shortest text that
/// reads back as the same double, so CSV and JSON show the same decimal; empty for an infinite
/// one (JSON's `null`).
pub fn decimal_cell(x: f64) -> String {
    if x.is_finite() { serde_json::to_string(&x).unwrap_or_default() } else { String::new() }
}

/// A count from the exact engine: a string of digits in JSON (no reader rounds it), with
/// thousands separators in text.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Big(pub Integer);

impl Big {
    pub fn of(n: impl Into<Integer>) -> Big {
        Big(n.into())
    }

    /// `568,630`.
    pub fn grouped(&self) -> String {
        grouped(&self.0)
    }

    /// `1 game`, `568,630 games`.
    pub fn plural(&self, one: &str, many: &str) -> String {
        format!("{} {}", self.grouped(), if self.0 == 1 { one } else { many })
    }

    /// `568630`: the CSV cell.
    pub fn plain(&self) -> String {
        number::big(&self.0)
    }
}

impl Serialize for Big {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&number::big(&self.0))
    }
}

/// A JSON object whose keys keep the order they were given in (pegs left 1, 2, ..., 10;
/// holes in the board's order), where a sorted map would put "10" before "2".
#[derive(Clone, Debug, PartialEq)]
pub struct Keyed<V>(pub Vec<(String, V)>);

impl<V> Default for Keyed<V> {
    fn default() -> Self {
        Keyed(Vec::new())
    }
}

impl<V> Keyed<V> {
    pub fn iter(&self) -> impl Iterator<Item = (&str, &V)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v))
    }

    pub fn get(&self, key: &str) -> Option<&V> {
        self.iter().find(|(k, _)| *k == key).map(|(_, v)| v)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<K: ToString, V> FromIterator<(K, V)> for Keyed<V> {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(items: I) -> Self {
        Keyed(items.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
    }
}

impl<V: Serialize> Serialize for Keyed<V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rug::ops::Pow;

    #[test]
    fn values_serialize_as_the_contracts_pair_and_keep_their_fraction_for_text() {
        let v = Value(Rational::from((13092, 3125)));
        assert_eq!(serde_json::to_string(&v).unwrap(), r#"{"fraction":"13092/3125","decimal":4.18944}"#);
        assert_eq!(v.decimal(), "4.18944");
        assert_eq!(v.fraction_and_decimal(Style::default()), "13092/3125 (4.18944)");
        assert_eq!(Value(Rational::from(0)).bits(), None);
        assert_eq!(Value(Rational::from(0)).bits_text(), "inf");
        assert_eq!(Value(Rational::from((1, 8))).bits_text(), "3.00000");
    }

    #[test]
    fn long_fractions_are_abbreviated_unless_full() {
        let long = Value(Rational::from((Integer::from(10).pow(50) + 1u32, Integer::from(3).pow(60))));
        assert_eq!(long.fraction(Style::default()), "100000…(51 digits)/423911…(29 digits)");
        assert_eq!(long.fraction(Style { full_fractions: true }), long.0.to_string());
    }

    #[test]
    fn keyed_maps_keep_their_order() {
        let k: Keyed<Big> = [(2, Big::of(5)), (10, Big::of(7))].into_iter().collect();
        assert_eq!(serde_json::to_string(&k).unwrap(), r#"{"2":"5","10":"7"}"#);
        assert_eq!(k.get("10"), Some(&Big::of(7)));
    }
}
