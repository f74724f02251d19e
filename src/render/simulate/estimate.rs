//! Pieces shared by the views that set simulations beside exact values (`simulate`, `audit`,
//! `race`): an estimate with its interval and z, the chi-square test, class numbers, and the
//! few text forms these views share (a signed z, an interval, a tally). Exact values, big
//! integers and the board object come from `render::values` and `render::board`.

use crate::engine::stats::ChiSquare;
pub use crate::render::board::{BoardInfo, names};
use crate::render::number::{grouped, significant};
use crate::render::values::decimal_cell;
pub use crate::render::values::{Big, Value};
use crate::solitaire::board::SymmetryGroup;
use crate::solitaire::estimates::Estimate;
use serde::Serialize;
use std::collections::BTreeMap;

/// Significant digits of a simulated proportion: its 95% interval rarely supports more.
pub const ESTIMATE_DIGITS: usize = 4;
/// Significant digits of a z-score or a test statistic.
pub const STAT_DIGITS: usize = 3;

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
            "chi-square {} on {}, p = {}",
            significant(self.statistic, STAT_DIGITS),
            crate::render::number::plural(self.df, "degree of freedom", "degrees of freedom"),
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
    #[serde(flatten)]
    pub compared: Compared,
}

/// A simulated figure with its 95% interval, beside the exact value when there is one, and
/// z = (estimate - exact) / its standard error: a proportion's, or the games' mean of pegs
/// left (`mean_pegs_left`).
#[derive(Clone, Debug, Serialize)]
pub struct Compared {
    pub estimate: f64,
    /// None for a mean of one game, whose spread is undefined.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ci95: Option<[f64; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub z: Option<f64>,
}

impl Compared {
    /// The interval's ends as CSV cells, empty where there is none.
    pub fn ci95_cells(&self) -> [String; 2] {
        self.ci95.map_or([String::new(), String::new()], |[lo, hi]| [decimal_cell(lo), decimal_cell(hi)])
    }
}

impl Proportion {
    /// The cells games, wins, estimate, 95% interval, exact, z (for people).
    pub fn cells(&self) -> Vec<String> {
        let c = &self.compared;
        vec![
            grouped(self.games),
            grouped(self.wins),
            proportion(c.estimate),
            interval(c.ci95),
            c.exact.as_ref().map_or("-".into(), Value::decimal),
            c.z.map_or("-".into(), signed),
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
    pub pegs_left: Option<BTreeMap<usize, Value>>,
    /// Simulated games by pegs left: one peg (the wins) and every other count that occurred
    /// or has an exact probability above 0.
    pub games_by_pegs_left: BTreeMap<usize, u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chi_square: Option<ChiSquareView>,
    /// The games' mean number of pegs left, beside the exact expectation (none of no games).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean_pegs_left: Option<Compared>,
}

impl Compared {
    /// For the games' mean of pegs left: "Expected pegs left: 3.12451 in the games, 95%
    /// interval [3.12001, 3.12901]; exact 3.12390, z = +0.265."
    pub fn mean_pegs_left_text(&self) -> String {
        let mean = |x: f64| significant(x, MEAN_DIGITS);
        let games = match self.ci95 {
            Some([lo, hi]) => {
                format!("{} in the games, 95% interval [{}, {}]", mean(self.estimate), mean(lo), mean(hi))
            }
            None => format!("{} in the game, no interval from one game", mean(self.estimate)),
        };
        match (&self.exact, self.z) {
            (Some(exact), Some(z)) => {
                format!("Expected pegs left: {games}; exact {}, z = {}.", exact.decimal(), signed(z))
            }
            (Some(exact), None) => format!("Expected pegs left: {games}; exact {}.", exact.decimal()),
            (None, _) => format!("Expected pegs left: {games}."),
        }
    }
}

/// Significant digits of a simulated mean of pegs left: millions of games pin it to a few
/// thousandths, so six show its interval.
const MEAN_DIGITS: usize = 6;

impl EstimateView {
    pub fn of(e: &Estimate) -> EstimateView {
        let possible = |pegs: usize| e.exact_pegs_left.as_ref().is_some_and(|d| d[pegs] > 0);
        let games_by_pegs_left = (0..e.pegs_left.len())
            .filter(|&pegs| pegs == 1 || e.pegs_left[pegs] > 0 || possible(pegs))
            .map(|pegs| (pegs, e.pegs_left[pegs]))
            .collect();
        let pegs_left = e
            .exact_pegs_left
            .as_ref()
            .map(|d| d.iter().enumerate().filter(|(_, p)| **p > 0).map(|(k, p)| (k, Value::of(p))).collect());
        EstimateView {
            win: Proportion {
                games: e.games,
                wins: e.wins,
                compared: Compared {
                    estimate: e.estimate(),
                    ci95: Some([e.ci95.0, e.ci95.1]),
                    exact: e.exact.as_ref().map(Value::of),
                    z: e.z,
                },
            },
            pegs_left,
            games_by_pegs_left,
            chi_square: e.chi_square.as_ref().map(ChiSquareView::of),
            mean_pegs_left: e.mean_pegs_left().map(|m| Compared {
                estimate: m.estimate,
                ci95: m.ci95.map(|(lo, hi)| [lo, hi]),
                exact: m.exact.as_ref().map(Value::of),
                z: m.z,
            }),
        }
    }

    /// The exact probability of ending with `pegs` pegs: 0 where the distribution leaves it
    /// out as impossible, none without exact values.
    pub fn exact_pegs_left(&self, pegs: usize) -> Option<Value> {
        let zero = || Value(rug::Rational::new());
        self.pegs_left.as_ref().map(|d| d.get(&pegs).cloned().unwrap_or_else(zero))
    }
}

/// Headers of [`Proportion::cells`].
pub const ESTIMATE_HEADERS: [&str; 6] = ["games", "wins", "estimate", "95% interval", "exact", "z"];

/// A simulated proportion, to four significant digits.
pub fn proportion(p: f64) -> String {
    significant(p, ESTIMATE_DIGITS)
}

/// "[0.004047, 0.004872]", or "none (1 game)" for a mean of one game.
pub fn interval(ci: Option<[f64; 2]>) -> String {
    match ci {
        Some([lo, hi]) => format!("[{}, {}]", proportion(lo), proportion(hi)),
        None => "none (1 game)".into(),
    }
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
    fn signed_statistics() {
        assert_eq!(signed(74.43), "+74.4");
        assert_eq!(signed(-0.7412), "-0.741");
        assert_eq!(signed(0.0), "0");
        assert_eq!(interval(Some([0.0, 0.0038274])), "[0, 0.003827]");
        assert_eq!(interval(None), "none (1 game)");
    }

    #[test]
    fn one_degree_of_freedom_is_singular() {
        let view = |df| ChiSquareView { statistic: 3.56, df, p_value: 0.0592 }.text();
        assert_eq!(view(1), "chi-square 3.56 on 1 degree of freedom, p = 0.0592");
        assert_eq!(view(7), "chi-square 3.56 on 7 degrees of freedom, p = 0.0592");
    }
}
