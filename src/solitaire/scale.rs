//! A layer's values over one common denominator: the lcm L of the layer's move totals times
//! the denominator below, so a position with move total W has its sums scaled by L / W. The
//! coach and the whole-group backward pass both work this way.

use crate::engine::layered::limbs::{mul_into, to_integer, write};
use hashbrown::HashMap;
use rug::Integer;

/// L / W for one total W: mostly a machine word.
pub enum Factor {
    Small(u64),
    Big(Integer),
}

impl Factor {
    /// `out` = `sum` · the factor (`out` wide enough for it).
    #[inline]
    pub fn scale(&self, out: &mut [u64], sum: &[u64]) {
        match self {
            Factor::Small(f) => mul_into(out, sum, *f),
            Factor::Big(f) => {
                out.fill(0);
                write(out, &(to_integer(sum) * f));
            }
        }
    }
}

/// The lcm of the distinct `totals`, and L / W for each of them: once per total, not once per
/// position.
pub fn factors(totals: impl IntoIterator<Item = u64>) -> (Integer, HashMap<u64, Factor>) {
    let mut distinct: Vec<u64> = totals.into_iter().collect();
    distinct.sort_unstable();
    distinct.dedup();
    let lcm = distinct.iter().fold(Integer::from(1), |l, &t| l.lcm(&Integer::from(t)));
    let factors = distinct
        .into_iter()
        .map(|t| {
            let f = Integer::from(&lcm / t);
            (t, f.to_u64().map_or(Factor::Big(f), Factor::Small))
        })
        .collect();
    (lcm, factors)
}
