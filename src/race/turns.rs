//! How long a race takes, in turns (rolls of the die), exactly.
//!
//! The chain counts moves, K: rolls that shift someone. When some faces move nobody (with
//! probability q, p = 1 - q), each move takes a Geometric(p) number of rolls, independent of
//! the race, so the number of turns is T = G_1 + ... + G_K and
//!   P(T = t, winner) = sum over k of P(K = k, winner) C(t-1, k-1) p^k q^(t-k),
//!   E\[T\] = E\[K\] / p,   Var\[T\] = Var\[K\] / p^2 + E\[K\] q / p^2.
//! Then T has no upper bound; its distribution is listed until all but `TAIL` of it is
//! covered or `MAX_ROWS` turns are listed, whichever comes first, and the mass beyond is
//! reported exactly. The mean and variance above are closed forms, exact whatever the list
//! shows; a quantile beyond the list is reported as such. (A likely idle face stretches the
//! game over thousands of turns whose exact terms grow with every turn: listing them all
//! would take minutes and say nothing the tail does not.)

use rug::ops::Pow;
use rug::{Integer, Rational};
use std::collections::BTreeMap;

/// With faces that move nobody, the listed distribution stops once less than this is left...
pub const TAIL: (u32, u32) = (1, 1000);

/// ...or once this many turns are listed, whichever comes first.
pub const MAX_ROWS: usize = 200;

/// The probability that the game ends on a given turn, by winner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnRow {
    pub turns: u64,
    pub swine: Rational,
    pub butcher: Rational,
}

impl TurnRow {
    pub fn total(&self) -> Rational {
        Rational::from(&self.swine + &self.butcher)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turns {
    /// The probability that a roll moves nobody.
    pub stay: Rational,
    pub mean: Rational,
    pub variance: Rational,
    /// E[T | the swine wins] and E[T | the butcher wins]; None for a side that cannot win.
    pub mean_if_swine_wins: Option<Rational>,
    pub mean_if_butcher_wins: Option<Rational>,
    pub shortest: u64,
    /// The smallest t with P(T <= t) >= 1/2; None when it lies beyond the listed turns.
    pub median: Option<u64>,
    /// The smallest t with P(T <= t) >= 9/10; None when it lies beyond the listed turns.
    pub percentile_90: Option<u64>,
    /// The longest possible game; None when it is unbounded (a face moves nobody).
    pub longest: Option<u64>,
    /// P(T = t) by winner for every t from `shortest` on, up to `longest` or the cut-off
    /// (less than `TAIL` left, or `MAX_ROWS` rows).
    pub rows: Vec<TurnRow>,
    /// P(T > last listed t): 0 when every game is listed.
    pub tail: Rational,
}

/// The turn statistics from the exact distribution of moves by winner, `by_moves[k] =
/// (P(swine wins after k moves), P(butcher wins after k moves))`, and the stay probability.
pub fn turns(by_moves: &BTreeMap<u32, (Rational, Rational)>, stay: &Rational) -> Turns {
    let go = Rational::from(1 - stay);
    assert!(go > 0 && !by_moves.is_empty(), "some face moves someone, and some game ends");

    let moment = |power: u32, side: Option<bool>| -> Rational {
        by_moves
            .iter()
            .map(|(&k, (s, b))| {
                let mass = match side {
                    None => Rational::from(s + b),
                    Some(true) => s.clone(),
                    Some(false) => b.clone(),
                };
                mass * Integer::from(k).pow(power)
            })
            .sum()
    };
    let (mean_moves, square_moves) = (moment(1, None), moment(2, None));
    let variance_moves = &square_moves - Rational::from(mean_moves.square_ref());
    let go_squared = Rational::from(go.square_ref());
    let mean = Rational::from(&mean_moves / &go);
    let variance = (variance_moves + Rational::from(&mean_moves * stay)) / &go_squared;
    let conditional = |swine: bool| {
        let p = moment(0, Some(swine));
        (p != 0).then(|| moment(1, Some(swine)) / p / &go)
    };

    let shortest = u64::from(*by_moves.keys().next().expect("not empty"));
    let most_moves = u64::from(*by_moves.keys().next_back().expect("not empty"));
    let rows = if *stay == 0 {
        (shortest..=most_moves)
            .map(|t| {
                let (s, b) = by_moves.get(&(t as u32)).cloned().unwrap_or_default();
                TurnRow { turns: t, swine: s, butcher: b }
            })
            .collect()
    } else {
        rows_with_stays(by_moves, stay, &go)
    };
    let covered: Rational = rows.iter().map(TurnRow::total).sum();
    let percentile = |level: Rational| -> Option<u64> {
        let mut cumulative = Rational::new();
        for row in &rows {
            cumulative += row.total();
            if cumulative >= level {
                return Some(row.turns);
            }
        }
        None
    };
    Turns {
        stay: stay.clone(),
        mean,
        variance,
        mean_if_swine_wins: conditional(true),
        mean_if_butcher_wins: conditional(false),
        shortest,
        median: percentile(Rational::from((1, 2))),
        percentile_90: percentile(Rational::from((9, 10))),
        longest: (*stay == 0).then_some(most_moves),
        tail: 1 - covered,
        rows,
    }
}

/// P(T = t) by winner, t = shortest, shortest + 1, ..., until the tail is below `TAIL` or
/// `MAX_ROWS` rows are listed.
fn rows_with_stays(
    by_moves: &BTreeMap<u32, (Rational, Rational)>,
    stay: &Rational,
    go: &Rational,
) -> Vec<TurnRow> {
    // term[k] = C(t-1, k-1) p^k q^(t-k), the chance that k moves take exactly t rolls,
    // updated from t - 1 to t by the factor q (t-1) / (t-k).
    let mut term: Vec<(u64, (Rational, Rational), Rational)> = Vec::new();
    let shortest = u64::from(*by_moves.keys().next().expect("not empty"));
    let limit = Rational::from(TAIL);
    let mut left = Rational::from(1);
    let mut rows = Vec::new();
    let mut t = shortest;
    let mut pending = by_moves.iter().peekable();
    while left >= limit && rows.len() < MAX_ROWS {
        for (k, _, chance) in term.iter_mut() {
            *chance *= Rational::from((Integer::from(t - 1), Integer::from(t - *k))) * stay;
        }
        while let Some((&k, masses)) = pending.next_if(|(k, _)| u64::from(**k) == t) {
            term.push((u64::from(k), masses.clone(), Rational::from(go.pow(k))));
        }
        let mut row = TurnRow { turns: t, swine: Rational::new(), butcher: Rational::new() };
        for (_, (s, b), chance) in &term {
            row.swine += Rational::from(s * chance);
            row.butcher += Rational::from(b * chance);
        }
        left -= row.total();
        rows.push(row);
        t += 1;
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use rug::ops::Pow;

    fn r(n: i64, d: i64) -> Rational {
        Rational::from((n, d))
    }

    #[test]
    fn without_stays_turns_are_moves() {
        let by_moves = BTreeMap::from([(1, (r(1, 2), r(0, 1))), (3, (r(1, 4), r(1, 4)))]);
        let t = turns(&by_moves, &Rational::new());
        assert_eq!(t.mean, r(2, 1));
        // E[K^2] = 1/2 + 9/2 = 5, Var = 5 - 4.
        assert_eq!(t.variance, r(1, 1));
        assert_eq!((t.shortest, t.median, t.percentile_90, t.longest), (1, Some(1), Some(3), Some(3)));
        assert_eq!(t.rows.len(), 3);
        assert_eq!(t.rows[1].total(), 0);
        assert_eq!(t.tail, 0);
        assert_eq!(t.mean_if_swine_wins, Some(r(5, 3)));
        assert_eq!(t.mean_if_butcher_wins, Some(r(3, 1)));
    }

    #[test]
    fn one_move_with_stays_is_geometric() {
        // One move, each roll moves with probability 1/3: T ~ Geometric(1/3).
        let by_moves = BTreeMap::from([(1, (r(1, 1), r(0, 1)))]);
        let t = turns(&by_moves, &r(2, 3));
        assert_eq!(t.mean, r(3, 1));
        assert_eq!(t.variance, r(6, 1)); // q / p^2
        assert_eq!(t.longest, None);
        for row in &t.rows {
            let expected = r(1, 3) * r(2, 3).pow(row.turns as u32 - 1);
            assert_eq!(row.swine, expected, "t = {}", row.turns);
        }
        // P(T <= t) = 1 - (2/3)^t: 1/2 first reached at t = 2, 9/10 at t = 6.
        assert_eq!((t.median, t.percentile_90), (Some(2), Some(6)));
        assert_eq!(t.tail, r(2, 3).pow(t.rows.len() as u32));
        assert!(t.tail < r(1, 1000));
        assert_eq!(t.mean_if_butcher_wins, None);
    }

    #[test]
    fn two_moves_with_stays_follow_the_negative_binomial() {
        let by_moves = BTreeMap::from([(2, (r(0, 1), r(1, 1)))]);
        let t = turns(&by_moves, &r(1, 2));
        // P(T = t) = (t - 1) / 2^t.
        for row in &t.rows {
            assert_eq!(row.butcher, r(row.turns as i64 - 1, 1 << row.turns));
        }
        assert_eq!(t.mean, r(4, 1));
        assert_eq!(t.variance, r(4, 1));
    }

    #[test]
    fn a_likely_stay_lists_at_most_max_rows_and_the_exact_rest() {
        // One move, each roll moves with probability 1/1000: T ~ Geometric(1/1000), whose
        // list would run to about 6,900 turns before less than 1/1000 is left.
        let by_moves = BTreeMap::from([(1, (r(1, 1), r(0, 1)))]);
        let t = turns(&by_moves, &r(999, 1000));
        assert_eq!(t.rows.len(), MAX_ROWS);
        assert_eq!(t.tail, r(999, 1000).pow(MAX_ROWS as u32), "P(T > 200) exactly");
        assert_eq!((t.mean, t.variance), (r(1000, 1), r(999_000, 1)));
        // P(T <= 200) is about 0.18: neither quantile is listed.
        assert_eq!((t.median, t.percentile_90), (None, None));
    }
}
