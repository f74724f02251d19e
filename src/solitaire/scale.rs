//! A layer's values over one common denominator: the lcm L of the layer's move totals times
//! the denominator below, so a position with move total W has its sums scaled by L / W. The
//! coach and the whole-group backward pass both work this way.

use crate::engine::layered::limbs::{mul_in_place, mul_into, to_integer, write};
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

    /// `row` times the factor, where it is: its high limbs (zero) take the product's.
    pub fn scale_in_place(&self, row: &mut [u64]) {
        match self {
            Factor::Small(f) => mul_in_place(row, *f),
            Factor::Big(f) => {
                let product = to_integer(row) * f;
                row.fill(0);
                write(row, &product);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::layered::limbs::limbs_for;

    /// Scaled where it is or into a wider row, a number is the product, for a factor of one
    /// word and for one of many; the row's high limbs take the carry.
    #[test]
    fn a_row_scaled_where_it_is_holds_the_product() {
        let (lcm, factors) = factors([3, 7, u64::MAX - 1, u64::MAX]);
        assert!(matches!(factors[&3], Factor::Big(_)) && matches!(factors[&u64::MAX], Factor::Small(_)));
        let number = Integer::from(u64::MAX) * 12_345u64 + 678u64;
        for (total, factor) in &factors {
            let product = &number * Integer::from(&lcm / *total);
            let mut row = vec![0u64; limbs_for(product.significant_bits())];
            write(&mut row, &number);
            let narrow = row[..2].to_vec();
            factor.scale_in_place(&mut row);
            assert_eq!(to_integer(&row), product, "total {total}");
            let mut out = vec![7u64; row.len()];
            factor.scale(&mut out, &narrow);
            assert_eq!(to_integer(&out), product, "total {total}");
        }
    }
}
