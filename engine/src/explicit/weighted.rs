//! An explicit chain as a [`Chain`]: each row's probabilities as whole weights over the
//! row's common denominator, so the engine's generic tools (the random walks, `explore`) take
//! a chain from a file as they take a chain a game generates.

use super::{ChainError, ExplicitChain};
use crate::Chain;
use rug::Integer;

/// An explicit chain with integer weights; built by [`ExplicitChain::weighted`].
#[derive(Clone, Debug)]
pub struct Weighted<'a> {
    chain: &'a ExplicitChain,
    /// Each transition's weight, in the order of [`ExplicitChain::row`].
    weights: Vec<u64>,
    /// Each row's total: the common denominator of its probabilities.
    totals: Vec<u64>,
}

impl ExplicitChain {
    /// The chain with each row's probabilities p as the weights p * d over d, the row's
    /// common denominator (exact); refused when some d passes 2^64 - 1. A state whose only
    /// move is to itself absorbs: it has no moves as a `Chain`.
    pub fn weighted(&self) -> Result<Weighted<'_>, ChainError> {
        let mut weights = Vec::with_capacity(self.transitions());
        let mut totals = Vec::with_capacity(self.states());
        for state in 0..self.states() as u32 {
            let denominator = self.row(state).fold(Integer::from(1), |d, (_, p)| d.lcm(p.denom()));
            let Some(total) = denominator.to_u64() else {
                let bits = denominator.significant_bits();
                return Err(ChainError::WideRow { state: u64::from(state), bits });
            };
            for (_, p) in self.row(state) {
                let weight = Integer::from(&denominator / p.denom()) * p.numer();
                weights.push(weight.to_u64().expect("p <= 1, so p * d <= d"));
            }
            totals.push(total);
        }
        Ok(Weighted { chain: self, weights, totals })
    }
}

impl Weighted<'_> {
    /// The chain it weighs.
    pub fn explicit(&self) -> &ExplicitChain {
        self.chain
    }
}

impl Chain for Weighted<'_> {
    type State = u32;

    fn transitions(&self, state: u32, out: &mut Vec<(u32, u64)>) -> u64 {
        out.clear();
        if self.chain.is_absorbing(state) {
            return 0;
        }
        let range = self.chain.row_range(state);
        let targets = self.chain.row(state).map(|(to, _)| to);
        out.extend(targets.zip(self.weights[range].iter().copied()));
        self.totals[state as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::super::Builder;
    use super::*;
    use rug::Rational;

    #[test]
    fn rows_become_weights_over_their_common_denominator() {
        let mut b = Builder::new(3).unwrap();
        b.row(0, [(1, Rational::from((1, 6))), (2, Rational::from((1, 4))), (0, Rational::from((7, 12)))])
            .unwrap();
        b.row(1, [(0, Rational::from(1))]).unwrap();
        b.absorbing(2).unwrap();
        b.initial(0).unwrap();
        let chain = b.finish().unwrap();
        let weighted = chain.weighted().unwrap();
        let mut out = Vec::new();
        // Rows are sorted by target: 0 (7/12), 1 (1/6), 2 (1/4), over 12.
        assert_eq!(weighted.transitions(0, &mut out), 12);
        assert_eq!(out, vec![(0, 7), (1, 2), (2, 3)]);
        assert_eq!(weighted.transitions(1, &mut out), 1);
        assert_eq!(out, vec![(0, 1)]);
        weighted.transitions(2, &mut out);
        assert!(out.is_empty(), "an absorbing state has no moves");
    }

    #[test]
    fn a_row_over_a_denominator_past_64_bits_is_refused() {
        let mut b = Builder::new(2).unwrap();
        let tiny = Rational::from((Integer::from(1), Integer::from(1) << 70u32));
        b.row(0, [(1, tiny.clone()), (0, Rational::from(1) - tiny)]).unwrap();
        b.absorbing(1).unwrap();
        b.initial(0).unwrap();
        let chain = b.finish().unwrap();
        assert_eq!(chain.weighted().unwrap_err(), ChainError::WideRow { state: 0, bits: 71 });
    }
}
