//! Pieces shared by the views that set simulations beside exact values (`simulate`, `audit`,
//! `race`): an exact value that serializes as the one `{fraction, decimal}` pair yet stays a
//! fraction for text, the board object, an estimate with its interval and z, and the few
//! text forms these views share (a signed z, an interval, a fraction abbreviated by style).
//!
//! Kept out of `render/number.rs` (the one formatter, which these only call).

use crate::engine::stats::ChiSquare;
use crate::render::Style;
use crate::render::number::{Exact, abbreviated, grouped, significant, significant_exact};
use crate::solitaire::board::{Board, SymmetryGroup};
use crate::solitaire::estimates::Estimate;
use rug::{Integer, Rational};
use serde::{Serialize, Serializer};
use std::collections::BTreeMap;

/// Significant digits of a simulated proportion: its 95% interval rarely supports more.
pub const ESTIMATE_DIGITS: usize = 4;
/// Significant digits of an exact value shown as a decimal.
pub const EXACT_DIGITS: usize = 6;
/// Significant digits of a z-score or a test statistic.
pub const STAT_DIGITS: usize = 3;
/// Characters up to which text shows a fraction whole (unless `--full`).
pub const FRACTION_CHARS: usize = 40;

/// An exact value held as a fraction, so text can round it exactly; in JSON it is the one
/// `{"fraction", "decimal"}` pair of [`Exact`].
#[derive(Clone, Debug, PartialEq)]
pub struct Fraction(pub Rational);

impl Serialize for Fraction {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Exact::of(&self.0).serialize(serializer)
    }
}

impl Fraction {
    pub fn of(value: &Rational) -> Fraction {
        Fraction(value.clone())
    }

    /// Six significant digits, rounded from the fraction.
    pub fn decimal(&self) -> String {
        significant_exact(&self.0, EXACT_DIGITS)
    }

    /// The fraction for text: whole with `--full`, abbreviated past 40 characters otherwise.
    pub fn text(&self, style: Style) -> String {
        fraction_text(&self.0, style)
    }
}

/// A big integer from the exact engine (a count of games): a string of digits in JSON, so no
/// reader rounds it; grouped by thousands in text.
#[derive(Clone, Debug, PartialEq)]
pub struct Big(pub Integer);

impl Serialize for Big {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0.to_string())
    }
}

impl Big {
    pub fn text(&self) -> String {
        grouped(&self.0)
    }
}

/// A fraction for text: whole with `--full`, abbreviated past 40 characters otherwise.
pub fn fraction_text(value: &Rational, style: Style) -> String {
    if style.full_fractions { value.to_string() } else { abbreviated(value, FRACTION_CHARS) }
}

/// `board` on every peg-solitaire document.
#[derive(Clone, Debug, Serialize)]
pub struct BoardView {
    pub name: String,
    pub holes: usize,
    pub jumps: usize,
    pub symmetry_order: usize,
}

impl BoardView {
    pub fn of(board: &Board, group: &SymmetryGroup) -> BoardView {
        BoardView {
            name: board.name().to_string(),
            holes: board.hole_count(),
            jumps: board.jumps().len(),
            symmetry_order: group.order(),
        }
    }

    /// "triangle5: 15 holes, 36 jumps, symmetry order 6".
    pub fn text(&self) -> String {
        format!(
            "{}: {} holes, {} jumps, symmetry order {}",
            self.name, self.holes, self.jumps, self.symmetry_order
        )
    }
}

/// Symmetry classes of start holes, numbered from 1 in the board's hole order.
pub struct Classes(Vec<Vec<u8>>);

impl Classes {
    pub fn of(group: &SymmetryGroup) -> Classes {
        Classes(group.hole_orbits())
    }

    /// The number of the class holding `hole`.
    pub fn number(&self, hole: u8) -> usize {
        self.0.iter().position(|orbit| orbit.contains(&hole)).map_or(0, |i| i + 1)
    }
}

/// Hole names, in the order given.
pub fn hole_names(board: &Board, holes: &[u8]) -> Vec<String> {
    holes.iter().map(|&h| board.hole_name(h).to_string()).collect()
}

/// `chi_square`: Pearson's test of the pegs-left tallies against the exact distribution.
#[derive(Clone, Debug, Serialize)]
pub struct ChiSquareView {
    pub statistic: f64,
    pub df: u64,
    pub p_value: f64,
}

impl ChiSquareView {
    fn of(c: &ChiSquare) -> ChiSquareView {
        ChiSquareView { statistic: c.statistic, df: c.degrees_of_freedom, p_value: c.p_value }
    }

    /// "chi-square 5.68 on 8 degrees of freedom, p = 0.683".
    pub fn text(&self) -> String {
        format!(
            "chi-square {} on {} degrees of freedom, p = {}",
            significant(self.statistic, STAT_DIGITS),
            self.df,
            significant(self.p_value, STAT_DIGITS)
        )
    }
}

/// `estimate`: a simulated proportion (wins out of games) with its 95% interval, beside the
/// exact value when there is one, and z = (estimate - exact) / sd.
#[derive(Clone, Debug, Serialize)]
pub struct Proportion {
    pub games: u64,
    pub wins: u64,
    pub estimate: f64,
    pub ci95: [f64; 2],
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact: Option<Fraction>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub z: Option<f64>,
}

impl Proportion {
    /// The cells games, wins, estimate, 95% interval, exact, z (for people).
    pub fn cells(&self) -> Vec<String> {
        vec![
            count(self.games),
            count(self.wins),
            proportion(self.estimate),
            interval(self.ci95),
            self.exact.as_ref().map_or("-".into(), Fraction::decimal),
            self.z.map_or("-".into(), signed),
        ]
    }
}

/// A peg-solitaire estimate: the proportion of one-peg finishes, and, when the exact engine
/// ran, the exact pegs-left distribution and the chi-square test of the tallies against it.
#[derive(Clone, Debug, Serialize)]
pub struct EstimateView {
    #[serde(flatten)]
    pub win: Proportion,
    /// Exact probabilities by pegs left (only those above 0).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pegs_left: Option<BTreeMap<usize, Fraction>>,
    /// Simulated games by pegs left: one peg (the wins) and every other count that occurred
    /// or has an exact probability above 0.
    pub games_by_pegs_left: BTreeMap<usize, u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chi_square: Option<ChiSquareView>,
}

impl EstimateView {
    pub fn of(e: &Estimate) -> EstimateView {
        let possible = |pegs: usize| e.exact_pegs_left.as_ref().is_some_and(|d| d[pegs] > 0);
        let games_by_pegs_left = (0..e.pegs_left.len())
            .filter(|&pegs| pegs == 1 || e.pegs_left[pegs] > 0 || possible(pegs))
            .map(|pegs| (pegs, e.pegs_left[pegs]))
            .collect();
        let pegs_left = e.exact_pegs_left.as_ref().map(|d| {
            d.iter().enumerate().filter(|(_, p)| **p > 0).map(|(k, p)| (k, Fraction::of(p))).collect()
        });
        EstimateView {
            win: Proportion {
                games: e.games,
                wins: e.wins,
                estimate: e.estimate(),
                ci95: [e.ci95.0, e.ci95.1],
                exact: e.exact.as_ref().map(Fraction::of),
                z: e.z,
            },
            pegs_left,
            games_by_pegs_left,
            chi_square: e.chi_square.as_ref().map(ChiSquareView::of),
        }
    }
}

/// Headers of [`Proportion::cells`].
pub const ESTIMATE_HEADERS: [&str; 6] = ["games", "wins", "estimate", "95% interval", "exact", "z"];

/// A tally with thousands separators.
pub fn count(n: u64) -> String {
    grouped(&Integer::from(n))
}

/// A simulated proportion, to four significant digits.
pub fn proportion(p: f64) -> String {
    significant(p, ESTIMATE_DIGITS)
}

/// "[0.004047, 0.004872]".
pub fn interval(ci: [f64; 2]) -> String {
    format!("[{}, {}]", proportion(ci[0]), proportion(ci[1]))
}

/// A z-score (or any signed statistic) to three significant digits, with its sign: "+0.251".
pub fn signed(z: f64) -> String {
    let text = significant(z, STAT_DIGITS);
    if z > 0.0 { format!("+{text}") } else { text }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fractions_serialize_as_the_exact_pair() {
        let json = serde_json::to_string(&Fraction(Rational::from((13092, 3125)))).unwrap();
        assert_eq!(json, r#"{"fraction":"13092/3125","decimal":4.18944}"#);
    }

    #[test]
    fn signed_statistics() {
        assert_eq!(signed(74.43), "+74.4");
        assert_eq!(signed(-0.7412), "-0.741");
        assert_eq!(signed(0.0), "0");
        assert_eq!(interval([0.0, 0.0038274]), "[0, 0.003827]");
    }
}
