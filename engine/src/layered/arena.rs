//! A bucket of states and their numerators: the keys in one vector, the numerators in one
//! flat arena of fixed-width limb numbers beside it, so a layer of millions of states costs
//! two allocations, not one heap number per state.

use super::alloc;
use super::limbs::{self, to_integer};
use super::numbers::{Factor, Numbers};
use crate::error::EngineError;

/// States with numerators of `stride` limbs each. A bucket is filled by every layer that
/// has children of its rank; `batches` counts those layers, and more than one means a state
/// may repeat (see `merged`).
pub(super) struct Bucket<S> {
    pub keys: Vec<S>,
    pub nums: Vec<u64>,
    pub stride: usize,
    pub batches: u32,
}

impl<S> Bucket<S> {
    pub fn new(stride: usize) -> Bucket<S> {
        Bucket { keys: Vec::new(), nums: Vec::new(), stride, batches: 0 }
    }

    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// The limbs of the i-th numerator.
    #[inline]
    pub fn limbs(&self, i: usize) -> &[u64] {
        &self.nums[i * self.stride..(i + 1) * self.stride]
    }

    /// The limbs of the i-th numerator, unless the numerators were dropped (see
    /// [`Bucket::keys_only`]).
    #[inline]
    pub fn kept_limbs(&self, i: usize) -> Option<&[u64]> {
        self.nums.get(i * self.stride..(i + 1) * self.stride)
    }

    /// The states without their numerators: a step taken in rounds scans its parents again
    /// once their shares are made, and needs only their states for that.
    pub fn keys_only(self) -> Bucket<S> {
        Bucket { nums: Vec::new(), ..self }
    }
}

impl<S: Copy + Ord> Bucket<S> {
    /// A bucket of one state with numerator `one` (the number 1 in the run's arithmetic):
    /// where the mass starts.
    pub fn single(state: S, one: Vec<u64>) -> Bucket<S> {
        Bucket { keys: vec![state], stride: one.len(), nums: one, batches: 1 }
    }

    /// Re-lays the arena with wider entries (never narrower).
    fn widen(&mut self, stride: usize) -> Result<(), EngineError> {
        if stride > self.stride {
            self.relay(stride)?;
        }
        Ok(())
    }

    /// Re-lays the arena with entries of `stride` limbs (wider than now): rare, so kept out
    /// of `push`, which runs once per child.
    #[cold]
    fn relay(&mut self, stride: usize) -> Result<(), EngineError> {
        let mut nums = alloc::zeroed(self.keys.len() * stride)?;
        for i in 0..self.keys.len() {
            nums[i * stride..i * stride + self.stride].copy_from_slice(self.limbs(i));
        }
        self.nums = nums;
        self.stride = stride;
        Ok(())
    }

    /// Room for `count` more states of `stride` words, taken now and exactly.
    pub fn reserve_exact(&mut self, count: usize, stride: usize) -> Result<(), EngineError> {
        alloc::reserve_exact(&mut self.keys, count)?;
        alloc::reserve_exact(&mut self.nums, count * stride.max(self.stride))
    }

    /// Appends a state; `limbs` may be narrower than the arena (then the arena widens). The
    /// arena grows fallibly: a refused allocation is an error, not an abort.
    #[inline]
    pub fn push(&mut self, key: S, limbs: &[u64]) -> Result<(), EngineError> {
        self.widen(limbs.len())?;
        alloc::push(&mut self.keys, key)?;
        alloc::reserve(&mut self.nums, self.stride)?;
        if limbs.len() == self.stride {
            self.nums.extend_from_slice(limbs);
        } else {
            let start = self.nums.len();
            self.nums.resize(start + self.stride, 0);
            self.nums[start..start + limbs.len()].copy_from_slice(limbs);
        }
        Ok(())
    }

    /// Multiplies every numerator by `factor`: mass waiting at a lower rank follows the
    /// common denominator when it grows by `factor`. Exact entries become at least `stride`
    /// limbs wide.
    pub fn scale(&mut self, numbers: &Numbers, factor: &Factor, stride: usize) -> Result<(), EngineError> {
        if numbers.lanes().is_some() {
            // One word per prime: the product fits in place.
            numbers.scale_residues(&mut self.nums, factor);
            return Ok(());
        }
        let factor = match factor {
            Factor::Small(f) => rug::Integer::from(*f),
            Factor::Big(f) => f.clone(),
            Factor::Lanes(_) => unreachable!("lanes are made by residue runs only"),
        };
        let values: Vec<rug::Integer> =
            (0..self.keys.len()).map(|i| to_integer(self.limbs(i)) * &factor).collect();
        self.stride = stride.max(self.stride);
        self.nums = Vec::new();
        self.nums = alloc::zeroed(self.keys.len() * self.stride)?;
        for (i, v) in values.iter().enumerate() {
            limbs::write(&mut self.nums[i * self.stride..(i + 1) * self.stride], v);
        }
        Ok(())
    }

    /// The bucket with each state once: a bucket fed by more than one layer (moves that skip
    /// ranks) holds a state once per feeding layer, and its numerators are added here. Exact
    /// entries grow by one limb, so the sum of the two or more shares cannot overflow.
    pub fn merged(mut self, numbers: &Numbers) -> Result<Bucket<S>, EngineError> {
        if self.batches <= 1 {
            return Ok(self);
        }
        if numbers.lanes().is_none() {
            self.widen(self.stride + 1)?;
        }
        let mut order: Vec<usize> = (0..self.keys.len()).collect();
        order.sort_by_key(|&i| self.keys[i]);
        let mut out = Bucket::new(self.stride);
        for i in order {
            if out.keys.last() == Some(&self.keys[i]) {
                let last = out.keys.len() - 1;
                let stride = out.stride;
                numbers.add_mul(&mut out.nums[last * stride..(last + 1) * stride], self.limbs(i), 1);
            } else {
                out.push(self.keys[i], self.limbs(i))?;
            }
        }
        out.batches = 1;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rug::Integer;

    #[test]
    fn merging_adds_the_shares_of_a_repeated_state() {
        let mut b: Bucket<u8> = Bucket::new(1);
        b.push(5, &[u64::MAX]).unwrap();
        b.push(2, &[7]).unwrap();
        b.batches = 2;
        b.push(5, &[3]).unwrap();
        let m = b.merged(&Numbers::Exact).unwrap();
        assert_eq!(m.keys, [2, 5]);
        assert_eq!(to_integer(m.limbs(0)), 7);
        assert_eq!(to_integer(m.limbs(1)), Integer::from(u64::MAX) + 3);
    }

    #[test]
    fn scaling_widens_the_entries() {
        let mut b: Bucket<u8> = Bucket::single(1, vec![1]);
        let factor = Numbers::Exact.factor(&Integer::from(Integer::u_pow_u(2, 100)));
        b.scale(&Numbers::Exact, &factor, 2).unwrap();
        assert_eq!(b.stride, 2);
        assert_eq!(to_integer(b.limbs(0)), Integer::from(Integer::u_pow_u(2, 100)));
    }
}
